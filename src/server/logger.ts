/** Where servers report what happens; the CLI decides how it is printed (or silenced). */
export type Logger = {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
