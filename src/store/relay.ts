/**
 * Messages between the instances sharing a store (PostgreSQL, Redis), for what lives in memory
 * only: live typing, request logs as they happen. Best effort: a message sent while the channel is
 * down is lost, as a keystroke to a dropped event stream is. Each instance gets the others' messages
 * in the order each sent them, never its own.
 */
export type Relay = {
  publish(message: string): void;
  subscribe(onMessage: (message: string) => void): void;
};
