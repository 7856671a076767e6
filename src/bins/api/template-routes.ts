import type Router from '@koa/router';
import { HttpError } from '../../http/errors.js';
import type { Context } from 'koa';
import { checkRead, requireAccess } from '../auth/auth.js';
import type { BinConfig } from '../config/config.js';
import { starterHtml } from '../assets/page-templates.js';
import { readSaveBody, readSaveInput } from './save-input.js';
import type { BinStore } from '../store/store.js';
import type { Template } from '../engines/records.js';
import { sendJson } from '../../http/json-answer.js';

/** What a new bin starts from: the saved template, else the built-in starter (`updated` null). */
export type StartingPoint = Omit<Template, 'updated'> & { updated: string | null };

export async function startingPoint(store: BinStore): Promise<StartingPoint> {
  return (await store.template()) ?? builtInStart();
}

/** The starter page every server begins with (templates/starter.html). */
export function builtInStart(): StartingPoint {
  return { html: starterHtml(), css: '', javascript: '', settings: {}, updated: null };
}

/** The API's form of a starting point: a revision's keys, without a bin or a snapshot. */
function templateBody(start: StartingPoint) {
  const { javascript, html, css, settings, updated } = start;
  return { javascript, html, css, settings, last_updated: updated };
}

/**
 * The template routes of the REST API (docs/bin-api.md § Templates), registered on the API's router
 * before `/:bin` (`template` is a reserved word, never a bin). Reading it is a read; setting it is a
 * save, with a save's body, rules and limits; resetting it is no more than setting the starter, so it
 * needs the same write right.
 */
export function templateRoutes(router: Router, { store, config }: { store: BinStore; config: BinConfig }): void {
  const write = requireAccess(config, 'write');
  const answer = (ctx: Context, start: StartingPoint) => {
    sendJson(ctx, templateBody(start));
  };

  router.get('/template', async (ctx) => {
    checkRead(ctx, config);
    answer(ctx, await startingPoint(store));
  });
  router.put('/template', write, async (ctx) => {
    const input = readSaveInput(await readSaveBody(ctx, config['max-request-size']), config);
    if (input.mocks) throw new HttpError(400, 'a template keeps no mocks: new bins start without them', 'mocks');
    const { html, javascript, css } = input;
    answer(ctx, await store.setTemplate({ html, javascript, css, settings: input.settings ?? {} }));
  });
  router.delete('/template', write, async (ctx) => {
    await store.clearTemplate();
    answer(ctx, await startingPoint(store));
  });
}
