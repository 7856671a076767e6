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
  let space: EngineSpace<Engine> | undefined;
  const opened: Opened[] = [];
  beforeEach(async () => {
    space = await kind.space();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((one) => one.close()));
    await space?.remove();
  });
  const current = (): EngineSpace<Engine> => {
    if (!space) throw new Error("no space: the describe's beforeEach hook has not run, or failed");
    return space;
  };
  return {
    get space() {
      return current();
    },
    async open() {
      const one = await openOn(current());
      opened.push(one);
      return one;
    },
  };
}
