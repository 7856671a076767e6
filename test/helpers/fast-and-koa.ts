import { join } from 'node:path';
import { createBinApp, createBinHandler } from '../../src/bins/app.js';
import { openBinStore, type BinStore } from '../../src/bins/store/store.js';
import { binConfigWith } from '../../src/bins/config/defaults.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { tempDir } from './temp.js';

/** One request, and how a test compares answers: status, the headers named, the body. */
export type Request = { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer };

export async function answer(server: RunningServer, { method, path, headers, body }: Request, names: string[]) {
  const res = await fetch(server.url + path, { method, headers, body, redirect: 'manual' });
  return { status: res.status, headers: names.map((h) => res.headers.get(h)), body: await res.text() };
}

/**
 * A describe block per config, each with the bin server twice over one store filled by `fill`: `fast`, the
 * handler serve-bins listens with (its fast paths before Koa), and `koa`, the Koa app alone. The fast paths
 * must answer as Koa does.
 */
export function describeFastAndKoa(
  configs: [string, Record<string, unknown>][],
  fill: (store: BinStore) => Promise<unknown>,
  cases: (servers: () => { fast: RunningServer; koa: RunningServer }) => void,
): void {
  for (const [name, overrides] of configs) {
    describe(name, () => {
      const temp = tempDir();
      let store: BinStore;
      let fast: RunningServer;
      let koa: RunningServer;
      before(async () => {
        const config = binConfigWith(overrides);
        store = await openBinStore(join(temp.dir, 'bins.sqlite'));
        await fill(store);
        fast = await listen(createBinHandler({ store, config }), 0, '127.0.0.1');
        koa = await listen(createBinApp({ store, config }).callback(), 0, '127.0.0.1');
      });
      after(async () => {
        await Promise.all([fast.close(100), koa.close(100)]);
        await store.close();
        temp.cleanup();
      });
      cases(() => ({ fast, koa }));
    });
  }
}
