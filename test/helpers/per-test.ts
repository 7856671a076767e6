// Hooks that give each test of a describe what it opens, and take it away after the test.

type Closable = { close(): Promise<void> };
type Removable = { remove(): Promise<void> };

/** An opener whose openings are closed after the test; `opened` lists the running test's, in order. */
export type ClosedAfterEach<Args extends unknown[], Opened> = ((...args: Args) => Promise<Opened>) & { opened: Opened[] };

/** `open`, with what it opens in a test closed after that test (an afterEach hook of the calling describe). */
export function closedAfterEach<Args extends unknown[], Opened extends Closable>(
  open: (...args: Args) => Promise<Opened>,
): ClosedAfterEach<Args, Opened> {
  const opened: Opened[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((one) => one.close()));
  });
  const opener = async (...args: Args): Promise<Opened> => {
    const one = await open(...args);
    opened.push(one);
    return one;
  };
  return Object.assign(opener, { opened });
}

/** What a describe's per-test hooks give its tests. */
export type PerTest<Made, Opened> = {
  /** What `make` made for the running test. */
  current(): Made;
  /** Opens another one on it; closed after the test. */
  open(): Promise<Opened>;
};

/**
 * Registers hooks in the calling describe: before each test, `make` (a store space, a server); after
 * it, all the test opened on that (with `openOn`) closed, then it removed.
 */
export function perTest<Made extends Removable, Opened extends Closable>(
  make: () => Promise<Made>,
  openOn: (made: Made) => Promise<Opened>,
): PerTest<Made, Opened> {
  let made: Made | undefined;
  beforeEach(async () => {
    made = await make();
  });
  const current = (): Made => {
    if (!made) throw new Error("nothing made: the describe's beforeEach hook has not run, or failed");
    return made;
  };
  const open = closedAfterEach(() => openOn(current())); // its afterEach is registered first: runs first
  afterEach(async () => {
    const done = made;
    made = undefined;
    await done?.remove();
  });
  return { current, open: () => open() };
}
