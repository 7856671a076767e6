import { join } from 'node:path';
import { createBinApp, createBinHandler } from '../../src/bins/app.js';
import type { Compiler } from '../../src/bins/compile/compiler.js';
import type { BinConfig } from '../../src/bins/config/config.js';
import { openBinStore, type BinStore } from '../../src/bins/store/store.js';
import { binConfigWith } from '../../src/bins/config/defaults.js';
import { listen } from '../../src/server/listen.js';
import { tempDir } from './temp.js';
import type { TestResponse } from './http.js';

export type TestBinServer = {
  url: string;
  file: string;
  store: BinStore;
  config: BinConfig;
  /** fetch relative to the server. */
  fetch(path: string, init?: RequestInit): Promise<TestResponse>;
  /** POST a form body. */
  postForm(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<TestResponse>;
  close(): Promise<void>;
};

type Overrides = { [key: string]: unknown };

/**
 * The real bin server on 127.0.0.1, port 0, over a real SQLite file (a temp one unless `file` is
 * given): the handler serve-bins listens with, or the Koa app alone with `fastPath: false`. A `compiler`
 * given is the caller's to close.
 */
export async function startBinServer(
  overrides: Overrides = {},
  file?: string,
  { fastPath = true, compiler }: { fastPath?: boolean; compiler?: Compiler } = {},
): Promise<TestBinServer> {
  const temp = file ? undefined : tempDir();
  const dataFile = file ?? join(temp!.dir, 'bins.sqlite');
  const config = binConfigWith(overrides);
  const store = await openBinStore(dataFile, { heads: config.cache.heads, revisionBytes: config.cache.revisionsMB * 1024 * 1024 });
  const handler = fastPath ? createBinHandler({ store, config, compiler }) : createBinApp({ store, config, compiler }).callback();
  const running = await listen(handler, 0, '127.0.0.1');
  const request = (path: string, init?: RequestInit): Promise<TestResponse> => fetch(running.url + path, init);
  return {
    url: running.url,
    file: dataFile,
    store,
    config,
    fetch: request,
    postForm: (path, fields, headers = {}) =>
      request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      }),
    async close() {
      await running.close(100);
      await store.close();
      temp?.cleanup();
    },
  };
}

/** Config that lets anyone write, for tests about content rather than keys. */
export const OPEN = { api: { allowAnonymousReadWrite: true } };
export const KEYED = { ownership: { api_key: 'sekrit-key' } };
