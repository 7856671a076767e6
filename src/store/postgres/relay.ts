import { randomBytes } from 'node:crypto';
import type { PostgresDb } from './client.js';
import type { Relay } from '../relay.js';

/** A NOTIFY payload is at most 8000 bytes; a message longer than this (in characters, up to 4 bytes each) goes by table. */
const INLINE_MAX = 1900;

/**
 * A relay (relay.ts) on a PostgreSQL channel, its notices' payloads fed by the engine's listener
 * (feeds.ts). A short message rides in the notice; a longer one is
 * written to `table` (id, body, sent) and the notice names its row, which the others read (rows over
 * a minute old are deleted as new ones come). Messages go out one after another, each once the one
 * before is sent, and are handed on in the order they came, so each instance's keep their order.
 * A message the store cannot take (it is away) is dropped.
 */
export function postgresRelay(db: PostgresDb, channel: string, table: string): { relay: Relay; onPayload(payload: string): void } {
  const from = randomBytes(8).toString('hex');
  const listeners: ((message: string) => void)[] = [];
  let incoming = Promise.resolve();
  const onPayload = (payload: string) => {
    const notice = JSON.parse(payload) as { from: string; message?: string; row?: string };
    if (notice.from === from) return;
    incoming = incoming.then(async () => {
      const message = notice.row === undefined ? notice.message : await body(notice.row);
      if (message !== undefined) for (const listen of listeners) listen(message);
    });
  };

  async function body(row: string): Promise<string | undefined> {
    try {
      const [found] = await db.query({ name: `${table}_read`, text: `SELECT body FROM ${table} WHERE id = $1`, values: [row] });
      return found ? String(found.body) : undefined;
    } catch {
      return undefined; // the store went away: the message is lost, as a notice would be
    }
  }

  let outgoing = Promise.resolve();
  const send = async (message: string) => {
    if (message.length <= INLINE_MAX) {
      await db.query({ name: `${table}_notify`, text: 'SELECT pg_notify($1, $2)', values: [channel, JSON.stringify({ from, message })] });
      return;
    }
    await db.query({
      name: `${table}_write`,
      text: `WITH old AS (DELETE FROM ${table} WHERE sent < now() - interval '1 minute'),
        row AS (INSERT INTO ${table} (body) VALUES ($2) RETURNING id)
        SELECT pg_notify($1, json_build_object('from', $3::text, 'row', id::text)::text) FROM row`,
      values: [channel, message, from],
    });
  };
  const relay: Relay = {
    publish(message) {
      outgoing = outgoing.then(() => send(message)).catch(() => {});
    },
    subscribe(onMessage) {
      listeners.push(onMessage);
    },
  };
  return { relay, onPayload };
}
