/**
 * Notices of other instances' writes, for a store shared by several (PostgreSQL, Redis). `onState(false)`
 * says notices may be missed from now on (the channel dropped): whatever was kept may be stale.
 * `onState(true)` says the channel listens again.
 */
export type ChangeFeed<C> = {
  subscribe(onChange: (change: C) => void, onState: (listening: boolean) => void): void;
};
