import { preparePart, type Query } from './schema-part.js';

/**
 * The SQL behind collections' live data (docs/mock-api.md, "Collections"): one row per collection
 * endpoint holding its whole state as JSON and `seed`, a digest of the data it started from, so a
 * changed seed (a new record, an edited db.json) is noticed and the stale state ignored.
 */

export type SavedCollection = { seed: string; value: string };

/** Creates the table when missing; refuses a file whose table a newer version wrote. */
export async function prepareCollectionTable(query: Query, file: string): Promise<void> {
  await preparePart(query, file, {
    part: 'mock-collections',
    version: 1,
    what: 'the collections',
    create: (q) =>
      q('CREATE TABLE IF NOT EXISTS mock_collections (name TEXT PRIMARY KEY, seed TEXT NOT NULL, value TEXT NOT NULL)'),
  });
}

export async function loadCollection(query: Query, name: string): Promise<SavedCollection | undefined> {
  const [row] = await query('SELECT seed, value FROM mock_collections WHERE name = ?', name);
  return row ? { seed: String(row.seed), value: String(row.value) } : undefined;
}

export async function saveCollection(query: Query, name: string, saved: SavedCollection): Promise<void> {
  await query('INSERT OR REPLACE INTO mock_collections (name, seed, value) VALUES (?, ?, ?)', name, saved.seed,
    saved.value);
}

export async function dropCollection(query: Query, name: string): Promise<void> {
  await query('DELETE FROM mock_collections WHERE name = ?', name);
}
