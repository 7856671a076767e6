import { perTest } from './per-test.js';

/**
 * A store space of one engine: a SQLite file, a PostgreSQL database, a Redis key prefix. `open` gives
 * another engine on the same space; `shared` says whether several may be open at once (one SQLite
 * file has one writer).
 */
export type EngineSpace<Engine> = { shared: boolean; open(): Promise<Engine>; remove(): Promise<void> };

export type EngineKind<Engine> = { name: string; space(): Promise<EngineSpace<Engine>> };

/** What a describe's space hooks give its tests. */
export type SpacePerTest<Engine, Opened> = {
  /** The running test's space. */
  readonly space: EngineSpace<Engine>;
  /** Opens another one on the running test's space; it is closed after the test. */
  open(): Promise<Opened>;
};

/**
 * Registers hooks in the calling describe: before each test, a new space of `kind`; after it, all
 * the test opened on it (with `openOn`) closed, then the space removed.
 */
export function spacePerTest<Engine, Opened extends { close(): Promise<void> }>(
  kind: EngineKind<Engine>,
  openOn: (space: EngineSpace<Engine>) => Promise<Opened>,
): SpacePerTest<Engine, Opened> {
  const each = perTest(() => kind.space(), openOn);
  return {
    get space() {
      return each.current();
    },
    open: each.open,
  };
}
