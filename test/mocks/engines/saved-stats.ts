import { openDataFileDb } from '../../../src/store/sqlite-db.js';

/** What the data file holds for endpoints' logs and counters, read through a second connection that only reads. */
export type SavedStatsReader = {
  /** The log entries saved for `name`, newest first. */
  entries(name: string): Promise<{ seq: number; url: string }[]>;
  stats(name: string): Promise<{ hits: number; last_call: string | null; sequence: number } | undefined>;
  close(): Promise<void>;
};

/** Opens `file` beside a running server (no lock: it never writes), to see what a save has put there. */
export async function readSavedStats(file: string): Promise<SavedStatsReader> {
  const db = await openDataFileDb(file, { lock: false });
  return {
    async entries(name) {
      const rows = await db.query('SELECT seq, entry FROM mock_requests WHERE name = ? ORDER BY seq DESC', name);
      return rows.map((row) => ({ seq: Number(row.seq), url: (JSON.parse(String(row.entry)) as { url: string }).url }));
    },
    async stats(name) {
      const [row] = await db.query('SELECT hits, last_call, sequence FROM mock_stats WHERE name = ?', name);
      return row as { hits: number; last_call: string | null; sequence: number } | undefined;
    },
    close: () => db.close(),
  };
}
