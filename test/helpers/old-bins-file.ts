import sqlite3 from 'sqlite3';

/** Runs statements on a file with a plain sqlite3 connection, as an older snippetkit or a crash left it. */
export async function onFile(file: string, work: (run: (sql: string, ...params: unknown[]) => Promise<unknown[]>) => Promise<void>) {
  const db = new sqlite3.Database(file);
  const run = (sql: string, ...params: unknown[]) =>
    new Promise<unknown[]>((resolve, reject) => db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));
  try {
    await work(run);
  } finally {
    await new Promise((resolve) => db.close(resolve));
  }
}

/**
 * Writes bins as an earlier release kept them, as Keyv records in its table (`bins:<bin>` heads,
 * `bins:<bin>/<rev>` revisions, `{"value": ...}`), straight into a new file, without the old code.
 */
export async function writeOldFile(file: string, rows: Record<string, unknown>): Promise<void> {
  await onFile(file, async (run) => {
    await run('CREATE TABLE keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )');
    for (const [key, value] of Object.entries(rows)) await run('INSERT INTO keyv VALUES (?, ?)', `bins:${key}`, JSON.stringify({ value }));
  });
}
