import type { IncomingMessage } from 'node:http';
import { checkHeaderCount } from './output-settings.js';
import { mergeSettings, type SaveInput } from './save-input.js';
import type { BinStore } from '../store/store.js';
import { summarize } from '../engines/summary.js';
import { MOCKS_SETTING, withoutMocks } from './save-mocks.js';

/** What a save answers: JS Bin's shape. */
export type SaveAnswer = { url: string; snapshot: number; summary: string };

/**
 * A save of `input` as the next revision of `bin` (a new bin when undefined), shared by the Koa route
 * and the pre-Koa fast path (fast-save.ts), so both store and answer alike.
 */
export async function saveAnswer(store: BinStore, bin: string | undefined, input: SaveInput): Promise<SaveAnswer> {
  const saved = await store.append(bin, (previous) => {
    // A revision keeps the mocks it was saved with, never the previous one's.
    const settings = mergeSettings(withoutMocks(previous?.settings ?? {}), input.settings);
    checkHeaderCount(settings); // thrown before anything is written
    if (input.mocks) settings[MOCKS_SETTING] = input.mocks;
    return { html: input.html, javascript: input.javascript, css: input.css, settings };
  });
  // JS Bin's summary, not the list's (saved.summary): clients of the API read this one.
  return { url: saved.bin, snapshot: saved.rev, summary: summarize(saved.html, saved.javascript, saved.css) };
}

/**
 * Failures of saves the fast path took on, by request: it has read the body by then, so it hands the
 * request to the Koa route, which throws the failure where it would read the body (takeFastFailure)
 * and answers it as it answers every error.
 */
const fastFailures = new WeakMap<IncomingMessage, unknown>();

export function leaveFastFailure(req: IncomingMessage, err: unknown): void {
  fastFailures.set(req, err);
}

/** Throws what the fast path left for this request, if anything. */
export function takeFastFailure(req: IncomingMessage): void {
  if (!fastFailures.has(req)) return;
  const err = fastFailures.get(req);
  fastFailures.delete(req);
  throw err;
}
