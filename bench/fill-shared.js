// Fills a shared store with `revisions` revisions in bins `fill0`, `fill1`, … of 10 each, straight into the
// bins' own tables (src/bins/engines/postgres-schema.ts) or keys (src/bins/engines/redis.ts), in bulk on the
// store's side: a million revisions in seconds. The schema must be there already (an instance started once).
import { createClient } from '@redis/client';
import pg from 'pg';

export const PER_BIN = 10;
const CREATED = '2026-01-01T00:00:00.000Z';

/** Bins the fill writes for `revisions` (whole bins of PER_BIN). */
export const binsFor = (revisions) => Math.max(1, Math.round(revisions / PER_BIN));

export async function fillPostgres(url, revisions) {
  const bins = binsFor(revisions);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO bin_heads (bin, latest, next, created, updated, summary, folded)
       SELECT 'fill' || b, $2, $2 + 1, $3, $3, 'Bin ' || b || ' revision ' || $2, 'bin ' || b || ' revision ' || $2
       FROM generate_series(0, $1 - 1) b`,
      [bins, PER_BIN, CREATED],
    );
    await client.query(
      `INSERT INTO bin_revisions (bin, rev, html, javascript, css, settings, created)
       SELECT 'fill' || b, r, '<h1>Bin ' || b || ' revision ' || r || E'</h1>\\n<p>Some text to make this a realistic size.</p>',
         'document.querySelector(''h1'').onclick = () => alert(' || r || ');', 'h1 { color: hsl(' || r * 7 || ', 60%, 40%); }',
         '{}', $3
       FROM generate_series(0, $1 - 1) b, generate_series(1, $2) r`,
      [bins, PER_BIN, CREATED],
    );
    // The plans a long-running server would have (the throwaway server runs without autovacuum).
    await client.query('VACUUM ANALYZE bin_heads, bin_revisions');
  } finally {
    await client.end();
  }
  return { bins };
}

// One script call writes a chunk of bins, every key as bins/engines/redis.ts lays it out.
const FILL_SCRIPT = `
local p, from, to, per, created, score = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], ARGV[6]
for b = from, to - 1 do
  local bin = 'fill' .. b
  for r = 1, per do
    redis.call('HSET', p .. 'rev:' .. bin .. ':' .. r,
      'html', '<h1>Bin ' .. b .. ' revision ' .. r .. '</h1>\\n<p>Some text to make this a realistic size.</p>',
      'javascript', "document.querySelector('h1').onclick = () => alert(" .. r .. ');',
      'css', 'h1 { color: hsl(' .. (r * 7) .. ', 60%, 40%); }', 'settings', '{}', 'created', created)
    redis.call('ZADD', p .. 'revs:' .. bin, r, r)
  end
  local summary = 'Bin ' .. b .. ' revision ' .. per
  redis.call('HSET', p .. 'head:' .. bin, 'latest', per, 'next', per + 1, 'created', created, 'updated', created,
    'summary', summary, 'folded', string.lower(summary))
  redis.call('ZADD', p .. 'list', score, bin)
end
return to - from`;
const CHUNK = 2000;

export async function fillRedis(url, prefix, revisions) {
  const bins = binsFor(revisions);
  const client = createClient({ url });
  await client.connect();
  try {
    const score = String(Date.parse(CREATED));
    for (let from = 0; from < bins; from += CHUNK) {
      const to = Math.min(bins, from + CHUNK);
      await client.sendCommand(['EVAL', FILL_SCRIPT, '0', prefix, String(from), String(to), String(PER_BIN), CREATED, score]);
    }
  } finally {
    client.destroy();
  }
  return { bins };
}
