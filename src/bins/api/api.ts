import Router from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../../http/errors.js';
import { checkRead, requireAccess } from '../auth/auth.js';
import type { BinConfig } from '../config/config.js';
import { parseRev, readAnswer } from './read.js';
import { saveAnswer, takeFastFailure } from './save.js';
import { jointWord, normalizeId } from '../addresses/ids.js';
import { readSaveBody, readSaveInput } from './save-input.js';
import type { BinStore } from '../store/store.js';
import { removeBin } from '../store/remove-bin.js';
import { templateRoutes } from './template-routes.js';
import { prettyTime } from './time.js';
import { sendJson } from '../../http/json-answer.js';

export type ApiOptions = { store: BinStore; config: BinConfig };

const notFound = () => new HttpError(404, 'not found');

/** The bin id of a route, or a 404 for ids that cannot name a bin. */
function binParam(ctx: Context): string {
  const id = normalizeId(ctx.params.bin ?? '');
  if (!id) throw notFound();
  return id;
}

/**
 * The bin a save names: one of the joint server's words is a 400 that names it (a client may pick a
 * bin's name, and should hear why this one is refused); any other id that cannot name a bin is a 404.
 */
function saveParam(ctx: Context): string {
  const word = jointWord(ctx.params.bin ?? '');
  if (word) throw new HttpError(400, `${word} is a reserved word, not a bin id: choose another name`, 'bin');
  return binParam(ctx);
}

export const ALL_ONLY_TRUE = 'all must be true (every revision of the bin) or left out (one revision)';
export const ALL_WITH_REV = 'all deletes every revision: name no revision with it';

/** `DELETE /api/:bin?all=true` (ours): every revision, not JS Bin's one. */
function wholeBin(ctx: Context): boolean {
  const all = ctx.query.all;
  if (all === undefined) return false;
  if (all !== 'true') throw new HttpError(400, ALL_ONLY_TRUE);
  if (ctx.params.rev !== undefined) throw new HttpError(400, ALL_WITH_REV);
  return true;
}

/** The REST API under /api: JS Bin 4's routes, shapes and messages (docs/bin-api.md). */
export function createApiRouter({ store, config }: ApiOptions): Router {
  const router = new Router({ prefix: '/api' });
  const write = requireAccess(config, 'write');
  const admin = requireAccess(config, 'admin');

  /** Reads share their answer with the pre-Koa fast path (fast-read.ts). */
  async function read(ctx: Context): Promise<void> {
    checkRead(ctx, config, normalizeId(ctx.params.bin ?? ''));
    const answer = await readAnswer(store, ctx.params.bin ?? '', ctx.params.rev);
    if (answer.status === 404) throw notFound();
    ctx.type = 'application/json; charset=utf-8';
    ctx.etag = answer.etag!; // conditionalGet answers a match with 304
    ctx.body = answer.json;
  }

  async function save(ctx: Context, bin: string | undefined): Promise<void> {
    takeFastFailure(ctx.req); // a save the fast path began and could not finish
    const input = readSaveInput(await readSaveBody(ctx, config['max-request-size']), config);
    sendJson(ctx, await saveAnswer(store, bin, input));
  }

  async function remove(ctx: Context): Promise<void> {
    const bin = binParam(ctx);
    if (wholeBin(ctx)) {
      const gone = await removeBin(store, bin);
      if (!gone) throw notFound();
      sendJson(ctx, { url: gone.bin, snapshot: gone.rev, deleted: true, revisions: gone.count });
      return;
    }
    const removed = await store.remove(bin, parseRev(ctx.params.rev));
    if (!removed) throw notFound();
    sendJson(ctx, { url: removed.bin, snapshot: removed.rev, deleted: true });
  }

  router.get('/', admin, async (ctx) => {
    const bins = await store.list();
    sendJson(ctx, bins.map(({ revisions }) =>
      revisions.map((revision) => {
        const { title, description } = revision.settings as { title?: unknown; description?: unknown };
        return {
          url: revision.bin,
          snapshot: revision.rev,
          last_updated: revision.created,
          pretty_last_updated: prettyTime(revision.created),
          ...(typeof title === 'string' && { title }),
          ...(typeof description === 'string' && { description }),
        };
      }),
    ));
  });
  templateRoutes(router, { store, config });
  router.post('/save', write, (ctx) => save(ctx, undefined));
  router.post('/:bin/save', write, (ctx) => save(ctx, saveParam(ctx)));
  router.get('/:bin', read);
  router.get('/:bin/:rev', read);
  router.delete('/:bin', admin, remove);
  router.delete('/:bin/:rev', admin, remove);
  return router;
}
