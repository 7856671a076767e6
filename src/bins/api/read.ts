import { normalizeId } from '../addresses/ids.js';
import type { BinStore, StoredRevision } from '../store/store.js';
import { mocksOf, withoutMocks } from './save-mocks.js';

/** A finished answer to GET /api/:bin[/:rev]: the status, the JSON to send and its ETag. */
export type ReadAnswer = { status: number; json: Buffer; etag?: string };

export const NOT_FOUND: ReadAnswer = { status: 404, json: Buffer.from('{"error":"not found"}') };

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

/** JS Bin's keys for a revision, in its order; then (ours) `mocks`, only for a revision saved with them. */
export function revisionBody(revision: StoredRevision) {
  const mocks = mocksOf(revision.settings);
  return {
    javascript: revision.javascript,
    html: revision.html,
    css: revision.css,
    settings: mocks ? withoutMocks(revision.settings) : revision.settings,
    last_updated: revision.created,
    url: revision.bin,
    snapshot: revision.rev,
    ...(mocks && { mocks }),
  };
}

/**
 * The answer to a read of `bin` at `rev` (raw route parameters). The Koa route and the pre-Koa
 * fast path both send exactly this, so they cannot differ.
 */
export async function readAnswer(store: BinStore, rawBin: string, rawRev: string | undefined): Promise<ReadAnswer> {
  const bin = normalizeId(rawBin);
  const revision = bin && (await store.get(bin, parseRev(rawRev)));
  return revision ? revisionAnswer(revision) : NOT_FOUND;
}

/** The answer that sends `revision`. */
export function revisionAnswer(revision: StoredRevision): ReadAnswer {
  return { status: 200, json: Buffer.from(JSON.stringify(revisionBody(revision))), etag: revisionTag(revision) };
}

/**
 * A revision's ETag, with no hashing: a bin never gives a number twice and a revision never changes, so the
 * bin, number and save time name its bytes (the time tells apart a bin of the same name in another data file).
 */
export function revisionTag(revision: StoredRevision): string {
  return `"${revision.bin}.${revision.rev}.${Date.parse(revision.created).toString(36)}"`;
}
