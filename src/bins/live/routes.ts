import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { applyCors } from '../../http/cors.js';
import { HttpError } from '../../http/errors.js';
import { PANELS, processorsOf, type ProcessorChoice } from '../../shared/processors.js';
import { checkAccess, checkRead } from '../auth/auth.js';
import type { Compiler } from '../compile/compiler.js';
import type { BinConfig } from '../config/config.js';
import { normalizeId } from '../addresses/ids.js';
import { OUTPUT_PAGE_CORS, type LiveHub } from './hub.js';
import { EDITOR_PATHS, OUTPUT_PATHS, PAGE_ROUTER, pageAddress } from '../addresses/page-paths.js';
import { rateLimiter, readJsonObject } from '../../http/json-object.js';
import { describeError } from '../../shared/processors.js';
import type { BinStore } from '../store/store.js';
import { sendJson } from '../../http/json-answer.js';

export type LiveRoutesOptions = { hub: LiveHub; store: BinStore; compiler: Compiler; config: BinConfig };

const MAX_RECORDS = 50;

/**
 * Live sharing (docs/bin-api.md § Live events): event streams on a bin's own addresses, as JS
 * Bin had them (`Accept: text/event-stream`); `POST /api/:bin/live` for its editor to broadcast
 * panel changes (the write right); `POST /api/:bin/console` for output pages to send console and
 * network records back to the editor (whoever may read the bin, so size- and rate-limited).
 */
export function liveRoutes({ hub, store, compiler, config }: LiveRoutesOptions): Middleware {
  const consoleLimit = rateLimiter(600);

  async function existing(id: string): Promise<string> {
    const bin = normalizeId(id);
    if (!bin || !(await store.get(bin))) throw new HttpError(404, 'not found');
    return bin;
  }

  async function broadcast(bin: string, body: Record<string, unknown>, client: string): Promise<void> {
    const previous = hub.state(bin);
    const latest = previous ? undefined : await store.get(bin);
    const processors: ProcessorChoice = body.processors === undefined
      ? previous?.processors ?? processorsOf(latest?.settings)
      : processorsOf({ processors: body.processors });
    const panels = previous?.panels ?? { html: latest!.html, css: latest!.css, javascript: latest!.javascript };
    const changed = PANELS.filter((name) => body[name] !== undefined);
    for (const name of changed) {
      if (typeof body[name] !== 'string') throw new HttpError(400, `${name} must be a string`, name);
    }
    if (changed.length === 0 && body.processors === undefined) throw new HttpError(400, 'send at least one of html, css, javascript');
    const next = { ...panels };
    for (const name of changed) next[name] = body[name] as string;
    hub.setState(bin, { panels: next, processors });
    // Raw text for watchers' editors first, then the compiled panel for output pages.
    for (const name of changed) hub.send(bin, name, next[name]);
    // Ours, not JS Bin's: watchers' editors show the same preprocessor choice.
    if (body.processors !== undefined) hub.send(bin, 'processors', JSON.stringify(processors));
    const touched = body.processors === undefined ? changed : PANELS;
    await Promise.all(
      touched.map(async (name) => {
        const result = await compiler.compile(processors[name], next[name], client);
        hub.send(bin, `${name}:processed`, result.ok ? result.code : describeError(processors[name], result.error));
      }),
    );
  }

  const router = new Router(PAGE_ROUTER);

  // A bin's output, editor and watch addresses are also its event stream (JS Bin's Accept: text/event-stream).
  router.get([...OUTPUT_PATHS, ...EDITOR_PATHS], async (ctx, next) => {
    const address = ctx.method === 'GET' && ctx.get('Accept').includes('text/event-stream') && pageAddress(ctx);
    if (!address) return next();
    // A stream is a read of the bin: the same guard as its pages, before the bin is looked up.
    checkRead(ctx, config, normalizeId(address.bin));
    hub.subscribe(ctx, await existing(address.bin));
  });

  /** Output pages post from an opaque origin; text/plain bodies need no preflight, but answer one anyway. */
  const postOnly = (ctx: Context): boolean => {
    if (applyCors(ctx, OUTPUT_PAGE_CORS)) return false;
    if (ctx.method !== 'POST') throw new HttpError(405, 'use POST');
    return true;
  };

  router.all('/api/:bin/live', async (ctx) => {
    if (!postOnly(ctx)) return;
    checkAccess(ctx, config, 'write');
    const bin = await existing(ctx.params.bin!);
    await broadcast(bin, await readJsonObject(ctx, 1024 * 1024), ctx.ip);
    sendJson(ctx, { connections: hub.connections(bin) });
  });

  router.all('/api/:bin/console', async (ctx) => {
    if (!postOnly(ctx)) return;
    // Whoever may read the bin may relay its console: its output page holds that right.
    checkRead(ctx, config, normalizeId(ctx.params.bin!));
    consoleLimit(ctx);
    const bin = await existing(ctx.params.bin!);
    const { records } = await readJsonObject(ctx, 64 * 1024);
    const valid = Array.isArray(records) && records.length <= MAX_RECORDS;
    if (!valid || !records.every((r) => typeof r === 'object' && r !== null)) {
      throw new HttpError(400, `records must be an array of at most ${MAX_RECORDS} objects`, 'records');
    }
    hub.send(bin, 'console', JSON.stringify(records));
    sendJson(ctx, { connections: hub.connections(bin) });
  });

  return router.routes() as Middleware;
}
