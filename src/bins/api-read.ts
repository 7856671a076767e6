import { normalizeId } from './ids.js';
import type { BinStore, StoredRevision } from './store.js';

/** A finished answer to GET /api/:bin[/:rev]: the status and the JSON text to send. */
export type ReadAnswer = { status: number; json: string };

export const NOT_FOUND_JSON = '{"error":"not found"}';

/**
 * JS Bin's revision rule: a positive integer names a revision; anything else (`latest`, `0`, `foo`)
 * means the latest (undefined). Integers too big to be a revision become Infinity, found nowhere.
 */
export function parseRev(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  const rev = Number(raw);
  if (rev === 0) return undefined;
  return Number.isSafeInteger(rev) ? rev : Infinity;
}

/** JS Bin's keys for a revision, in its order. */
export function revisionBody(revision: StoredRevision) {
  return {
    javascript: revision.javascript,
    html: revision.html,
    css: revision.css,
    settings: revision.settings,
    last_updated: revision.created,
    url: revision.bin,
    snapshot: revision.rev,
  };
}

/**
 * The answer to a read of `bin` at `rev` (raw route parameters). The Koa route and the pre-Koa
 * fast path both send exactly this, so they cannot differ.
 */
export async function readAnswer(store: BinStore, rawBin: string, rawRev: string | undefined): Promise<ReadAnswer> {
  const bin = normalizeId(rawBin);
  const revision = bin && (await store.get(bin, parseRev(rawRev)));
  if (!revision) return { status: 404, json: NOT_FOUND_JSON };
  return { status: 200, json: JSON.stringify(revisionBody(revision)) };
}
