import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBinHandler } from '../bins/app.js';
import { createCompiler } from '../bins/compile/compiler.js';
import { createLiveHub } from '../bins/live/hub.js';
import { openSharedBinStore } from '../bins/store/shared-store.js';
import { openBinStore, type BinStore } from '../bins/store/store.js';
import { checksHost, guardHost } from '../server/host-check.js';
import { listen, type RunningServer } from '../server/listen.js';
import { silentLogger } from '../server/logger.js';
import { apiClient, BinApiError } from './api-client.js';
import { checkBinServerOptions, type BinConfigInput, type BinServerOptions } from './bin-server-options.js';
import type { MockRecord } from './mock-server.js';

/** What `save` sends (docs/bin-api.md, `POST /api/save`); a panel not given is saved as "". */
export type BinInput = {
  /** A new revision of this bin (claimed if unused); a new bin with a fresh id without it. */
  bin?: string;
  html?: string;
  javascript?: string;
  css?: string;
  /** Deep-merged over the previous revision's: `processors`, `title`, `statusCode`, `headers` … */
  settings?: Record<string, unknown>;
  /** The endpoint records kept with the revision (docs/bin-api.md, "A sketch with its API"). */
  mocks?: MockRecord[];
};

export type SavedBin = {
  bin: string;
  /** The revision's number (JS Bin's `snapshot`). */
  revision: number;
  /** The revision's output page. */
  url: string;
  /** A short plain-text title the server made from the content. */
  summary: string;
};

/** One revision as `GET /api/:bin[/:rev]` answers it, under the names `save` uses. */
export type BinRevision = Required<Omit<BinInput, 'mocks'>> & {
  revision: number;
  /** When it was saved, ISO 8601. */
  lastUpdated: string;
  url: string;
  mocks?: MockRecord[];
};

/** One bin of `list()`: its revisions, newest first. */
export type BinListing = {
  bin: string;
  revisions: { revision: number; lastUpdated: string; url: string; title?: string; description?: string }[];
};

export type BinServer = {
  /** The server's origin, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  /** The owner key every method sends (as `Authorization: token KEY`): the one given, or the one made at start. */
  readonly key: string;
  /** Saves a new bin, or a new revision of `input.bin`; a refusal (no content, a bad setting) is a BinApiError 400. */
  save(input: BinInput): Promise<SavedBin>;
  /** The revision (the latest without `revision`), or undefined when there is none. */
  get(bin: string, revision?: number): Promise<BinRevision | undefined>;
  /** Every bin, last saved first, each with its revisions newest first. */
  list(): Promise<BinListing[]>;
  /** Deletes one revision (the latest without `revision`; the bin falls back to the one before); false when there was none. */
  remove(bin: string, revision?: number): Promise<boolean>;
  /** Deletes every revision of the bin (`DELETE /api/:bin?all=true`); false when there was none. */
  removeBin(bin: string): Promise<boolean>;
  /** Stops the server (requests in flight finish) and closes its store; an in-memory one is gone. */
  close(): Promise<void>;
};

export type { BinConfigInput, BinServerOptions };

/**
 * The bin server in this process, for a test suite or a tool: `const bins = await startBinServer()`,
 * then `save`, `get`, `list`, `remove`, `close`. The same server serve-bins runs, without the CLI: no
 * environment read, no key file written. docs/testing-with-mocks.md, "A bin server from code".
 */
export async function startBinServer(options: BinServerOptions = {}): Promise<BinServer> {
  const { port, host, data, store: storeUrl, config, key, logger = silentLogger } = checkBinServerOptions(options);
  const cache = { heads: config.cache.heads, revisionBytes: config.cache.revisionsMB * 1024 * 1024 };
  // The bins have no in-memory engine: "in memory" is a SQLite file in a folder of its own, gone at close.
  const temp = data === undefined && storeUrl === undefined ? mkdtempSync(join(tmpdir(), 'snippetkit-bins-')) : undefined;
  const removeTemp = () => temp && rmSync(temp, { recursive: true, force: true });
  let store: BinStore;
  try {
    if (storeUrl !== undefined) store = await openSharedBinStore(storeUrl, cache);
    else store = await openBinStore(data ?? join(temp!, 'bins.sqlite'), cache);
  } catch (err) {
    removeTemp();
    throw err;
  }
  // Made here, not by the app, so close() can end open event streams and stop compile children.
  const live = createLiveHub();
  const compiler = createCompiler();
  if (store.relay) live.join(store.relay);
  let running: RunningServer;
  try {
    const handler = createBinHandler({ store, config, logger, live, compiler });
    const guarded = checksHost(host, []) ? guardHost(handler, [], (message) => ({ error: message })) : handler;
    running = await listen(guarded, port, host);
  } catch (err) {
    live.close();
    compiler.close();
    await store.close();
    removeTemp();
    throw err;
  }

  const client = apiClient(running.url, { key, Refusal: BinApiError });
  const id = encodeURIComponent;
  const pageUrl = (bin: string, revision: number) => `${running.url}/${bin}/${revision}`;
  const found = <T>(call: Promise<T>): Promise<T | undefined> =>
    call.catch((err: unknown) => {
      if (err instanceof BinApiError && err.status === 404) return undefined;
      throw err;
    });
  const revisionPath = (bin: string, revision: number | undefined) => {
    if (revision === undefined) return `/api/${id(bin)}`;
    // The API reads any other revision (0, 1.5) as the latest: a remove(bin, 0) would delete it.
    if (!Number.isInteger(revision) || revision < 1) throw new RangeError(`revision must be a whole number from 1, not ${revision}`);
    return `/api/${id(bin)}/${revision}`;
  };
  let closing: Promise<void> | undefined;

  return {
    url: running.url,
    port: running.port,
    key,
    async save({ bin, ...body }) {
      const path = bin === undefined ? '/api/save' : `/api/${id(bin)}/save`;
      const saved = await client.call<{ url: string; snapshot: number; summary: string }>('POST', path, body);
      return { bin: saved.url, revision: saved.snapshot, url: pageUrl(saved.url, saved.snapshot), summary: saved.summary };
    },
    async get(bin, revision) {
      const answer = await found(client.call<JsBinRevision>('GET', revisionPath(bin, revision)));
      if (!answer) return undefined;
      const { url, snapshot, last_updated: lastUpdated, ...panels } = answer;
      return { bin: url, revision: snapshot, ...panels, lastUpdated, url: pageUrl(url, snapshot) };
    },
    async list() {
      const bins = await client.call<JsBinListed[][]>('GET', '/api');
      return bins.filter((revisions) => revisions.length > 0).map((revisions) => ({
        bin: revisions[0]!.url,
        revisions: revisions.map(({ url, snapshot, last_updated: lastUpdated, title, description }) => ({
          revision: snapshot,
          lastUpdated,
          url: pageUrl(url, snapshot),
          ...(title !== undefined && { title }),
          ...(description !== undefined && { description }),
        })),
      }));
    },
    async remove(bin, revision) {
      return (await found(client.call('DELETE', revisionPath(bin, revision)))) !== undefined;
    },
    removeBin: async (bin) => (await found(client.call('DELETE', `/api/${id(bin)}?all=true`))) !== undefined,
    close: () =>
      (closing ??= (async () => {
        client.close();
        live.close();
        compiler.close();
        try {
          await running.close();
          await store.close();
        } finally {
          removeTemp();
        }
      })()),
  };
}

/** JS Bin's names, as the API answers them (docs/bin-api.md). */
type JsBinRevision = Omit<BinRevision, 'bin' | 'revision' | 'lastUpdated'> & { snapshot: number; last_updated: string };
type JsBinListed = { url: string; snapshot: number; last_updated: string; title?: string; description?: string };
