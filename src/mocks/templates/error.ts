/** A template that failed to compile (a 400 at save) or to render (a 500), naming the record field. */
export class TemplateError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`template error: ${field}: ${message}`);
  }
}
