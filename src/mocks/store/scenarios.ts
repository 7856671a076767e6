import type { Logger } from '../../server/logger.js';
import { retrying } from '../../store/retry.js';
import type { MockEngine } from '../engines/engine.js';
import { START } from '../record/validate-scenario.js';

/** How long a failed save of scenario states waits before it is tried again, in milliseconds. */
const RETRY_MS = 500;

/**
 * The states of stateful scenarios (docs/mock-api.md, "Scenarios"), held in memory for serving and
 * kept by the engine. A request's answer moves a state in memory at once, in the same synchronous
 * step that read it, so requests on this instance see one consistent sequence; the engine's copy is
 * written behind, one write at a time (changes made meanwhile go together in the next). The API's
 * writes (`set`, `reset`) answer once the engine holds them. On a shared store each write tells the
 * other instances, which read every state again; a state this instance changed after such a read
 * started is newer than what it read, and stays.
 */
export type Scenarios = {
  /** The state of scenario `name` now: `start` until one is set. */
  state(name: string): string;
  /** A request's answer moves `name` to `state`: now in memory, in the engine behind. */
  move(name: string, state: string): void;
  /** Every state that is not `start`, by scenario name. */
  states(): ReadonlyMap<string, string>;
  /** Sets these states: in the engine, then in memory. */
  set(states: ReadonlyMap<string, string>): Promise<void>;
  /** Every scenario back to `start`: in the engine, then in memory. */
  reset(): Promise<void>;
  /** Writes what is pending; the engine is closed after. */
  close(): Promise<void>;
};

/**
 * What bounds the states held: every live scenario is named by an endpoint, so past `max` (the store's
 * --max-endpoints) states, those of scenarios no endpoint names (`named`) go back to `start`. Only
 * endpoints deleted after moving their scenario leave such states, and each costs API calls.
 */
export type ScenarioBound = { max: number; named(): Iterable<{ record: { scenario?: string } }> };

export async function openScenarios(engine: MockEngine, logger: Logger, bound: ScenarioBound): Promise<Scenarios> {
  const records = engine.scenarios;
  const states = new Map<string, string>();
  const put = (name: string, state: string) => (state === START ? states.delete(name) : states.set(name, state));
  for (const [name, state] of await records.all()) put(name, state);

  // Every engine call runs on this chain, one at a time, in the order asked for.
  let chain: Promise<unknown> = Promise.resolve();
  const run = <T>(task: () => Promise<T>): Promise<T> => {
    const done = chain.then(task);
    chain = done.catch(() => undefined);
    return done;
  };

  // Local changes, numbered: a read that began before a name's last change must not undo it.
  let changes = 0;
  let resetAt = 0;
  const changedAt = new Map<string, number>();
  const changed = (name: string) => changedAt.set(name, ++changes);

  const pending = new Map<string, string>();
  let scheduled = false;
  let failing = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const flush = async () => {
    scheduled = false;
    if (pending.size === 0) return;
    const batch = new Map(pending);
    pending.clear();
    try {
      await records.set(batch);
    } catch (err) {
      // Back in line, unless a newer state of the name came meanwhile.
      for (const [name, state] of batch) if (!pending.has(name)) pending.set(name, state);
      if (!failing) logger.error(`cannot save scenario states (retrying): ${(err as Error).message}`);
      failing = true;
      if (!closed) retry ??= setTimeout(() => ((retry = undefined), schedule()), RETRY_MS).unref();
      return;
    }
    if (failing) logger.info('scenario states are saved again');
    failing = false;
  };
  const prune = () => {
    if (states.size <= bound.max) return;
    const live = new Set<string | undefined>();
    for (const { record } of bound.named()) live.add(record.scenario);
    for (const name of [...states.keys()]) {
      if (live.has(name)) continue;
      states.delete(name);
      changed(name);
      pending.set(name, START);
    }
    schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    void run(flush);
  };

  // On a shared store: another instance's write, or the notice channel back after a drop.
  let listening = true;
  let reading = false;
  let again = false;
  const readOnce = async () => {
    const started = changes;
    const found = await records.all();
    if (resetAt > started) return;
    for (const name of new Set([...states.keys(), ...found.keys()])) {
      if ((changedAt.get(name) ?? 0) > started || pending.has(name)) continue;
      put(name, found.get(name) ?? START);
    }
  };
  const readAll = () => {
    if (reading) return void (again = true);
    reading = true;
    void (async () => {
      do {
        again = false;
        const failed = (err: unknown) => logger.error(`cannot read scenario states (retrying): ${(err as Error).message}`);
        // On the chain: this instance's own writes land before the read.
        if (!(await retrying(() => run(readOnce), () => listening && !closed, failed))) break;
      } while (again);
    })().finally(() => (reading = false));
  };
  engine.changes?.subscribe(
    (change) => {
      if ('scenarios' in change) readAll();
    },
    (now) => {
      listening = now;
      if (now) readAll();
    },
  );

  return {
    state: (name) => states.get(name) ?? START,
    move(name, state) {
      if ((states.get(name) ?? START) === state) return;
      put(name, state);
      changed(name);
      pending.set(name, state);
      schedule();
      prune();
    },
    states: () => states,
    set: (batch) =>
      run(async () => {
        await records.set(batch);
        for (const [name, state] of batch) {
          put(name, state);
          changed(name);
          pending.delete(name);
        }
        prune();
      }),
    reset: () =>
      run(async () => {
        await records.clear();
        states.clear();
        pending.clear();
        resetAt = ++changes;
      }),
    async close() {
      closed = true;
      clearTimeout(retry);
      await run(flush);
    },
  };
}
