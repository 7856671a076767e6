import type { CollectionAnswer } from '../collections/ops.js';
import { orphans, plural, relate, type Db } from '../collections/relations.js';
import type { Query } from '../collections/query.js';
import type { Collections, State } from '../collections/state.js';
import type { StoredMock } from '../record/record.js';

/** The collection records of the database by name: every collection endpoint, as json-server has one db. */
export type Database = () => ReadonlyMap<string, StoredMock>;

/** Most `_embed` plus `_expand` names in one query: each is a pass over another collection per item. */
export const MAX_RELATED = 8;

const values = (query: Query, key: string): string[] => (query[key] === undefined ? [] : [query[key]].flat());

/** The states of `names` (those that are collections), read now. */
async function readDb(collections: Collections, database: Database, names: Iterable<string>): Promise<Db> {
  const records = database();
  const db = new Map<string, State>();
  for (const name of new Set(names)) {
    const record = records.get(name);
    if (record) db.set(name, await collections.read(record));
  }
  return db;
}

/** A read's answer with `_embed` and `_expand` applied to its item or each of its items (json-server 0.17). */
export async function withRelated(
  got: CollectionAnswer,
  name: string,
  query: Query,
  collections: Collections,
  database: Database,
): Promise<CollectionAnswer> {
  const embeds = values(query, '_embed');
  const expands = values(query, '_expand');
  if (got.status !== 200 || embeds.length + expands.length === 0) return got;
  if (embeds.length + expands.length > MAX_RELATED) {
    return { status: 400, value: { success: false, message: `a query may name at most ${MAX_RELATED} _embed and _expand collections`, field: '_embed' } };
  }
  const db = await readDb(collections, database, [...embeds, ...expands.map(plural)]);
  const add = relate(name, embeds, expands, db);
  const one = (item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? add(item as Record<string, unknown>) : item;
  return { ...got, value: Array.isArray(got.value) ? got.value.map(one) : one(got.value) };
}

/**
 * After a DELETE: removes the items of every collection left naming an item that is gone (`comments`
 * with `postId: 1` once post 1 is), as json-server 0.17 does. Each collection changes on its own,
 * in turn with its other changes; the DELETE is answered once they are stored.
 */
export async function removeDependents(collections: Collections, database: Database): Promise<void> {
  const records = database();
  const db = await readDb(collections, database, records.keys());
  for (const [name, ids] of orphans(db)) {
    await collections.update(records.get(name)!, (state) => {
      if (!Array.isArray(state)) return { answer: undefined };
      // Ids compare as text (sameId), as json-server's getById compares them.
      const kept = state.filter((item) => item.id === undefined || item.id === null || !ids.has(String(item.id)));
      return { answer: undefined, ...(kept.length !== state.length && { state: kept }) };
    });
  }
}

/** GET /db: every collection of the database, by name, as json-server 0.17 answers it. */
export async function wholeDb(collections: Collections, database: Database): Promise<Record<string, State>> {
  return Object.fromEntries(await readDb(collections, database, database().keys()));
}
