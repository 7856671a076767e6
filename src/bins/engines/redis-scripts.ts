import { luaScript } from '../../store/redis/client.js';

/*
 * The bins' Lua scripts (layout: redis.ts). Each runs whole, alone on Redis: a write and its
 * notice land together or not at all. Scripts that reach keys by name build them from a key prefix
 * passed in ARGV, so the bins need one Redis (or one cluster slot), not a cluster.
 * Numbers travel as decimal strings, compared as such (the engine writes them with String()).
 */

/** A list row, {bin, latest, revision count, updated, summary}; HEADS and REVS are key prefixes. */
const ROW = `
local function row(bin, heads, revs)
  local h = redis.call('HMGET', heads .. bin, 'latest', 'updated', 'summary')
  return {bin, h[1], redis.call('ZCARD', revs .. bin), h[2], h[3]}
end
`;

export const binScripts = {
  /**
   * KEYS head, revision, revs, list, schema. Writes revision and head if the head's `next` is `expected`
   * ('' : if there is no head), lists the bin and publishes; 1 if written, 0 (nothing written) if not.
   */
  binsSave: luaScript(
    `local expected, rev, nxt, created, updated, summary, folded, html, javascript, css, settings, saved,
      score, bin, channel, payload, version = unpack(ARGV)
    local stored = redis.call('HGET', KEYS[1], 'next')
    if expected == '' then
      if stored then return 0 end
    elseif stored ~= expected then return 0 end
    redis.call('HSET', KEYS[2], 'html', html, 'javascript', javascript, 'css', css, 'settings', settings, 'created', saved)
    redis.call('ZADD', KEYS[3], rev, rev)
    redis.call('HSETNX', KEYS[1], 'created', created)
    redis.call('HSET', KEYS[1], 'latest', rev, 'next', nxt, 'updated', updated, 'summary', summary, 'folded', folded)
    redis.call('ZADD', KEYS[4], score, bin)
    redis.call('HSETNX', KEYS[5], 'bins', version)
    redis.call('PUBLISH', channel, payload)
    return 1`,
    5,
  ),

  /**
   * KEYS head, revision, revs, list. Deletes revision `rev`; with `moved` = '1' (the latest goes) only if
   * the head's latest is `rev` and the revision it moves to (`latest`) is still there, writing the head's
   * new fields and its place in the list (out of it at latest 0); without, only if `rev` is not the
   * latest (it became so meanwhile). 1 if it deleted, 0 if not; publishes when it did.
   */
  binsRemove: luaScript(
    `local rev, moved, latest, updated, summary, folded, score, bin, channel, payload, revisionPrefix = unpack(ARGV)
    local current = redis.call('HGET', KEYS[1], 'latest')
    if moved == '1' then
      if current ~= rev then return 0 end
      if tonumber(latest) > 0 and redis.call('EXISTS', revisionPrefix .. latest) == 0 then return 0 end
      redis.call('HSET', KEYS[1], 'latest', latest, 'updated', updated, 'summary', summary, 'folded', folded)
      if tonumber(latest) > 0 then redis.call('ZADD', KEYS[4], score, bin) else redis.call('ZREM', KEYS[4], bin) end
    elseif current == rev then
      return 0
    end
    local deleted = redis.call('DEL', KEYS[2])
    redis.call('ZREM', KEYS[3], rev)
    if moved == '1' then deleted = 1 end
    if deleted == 1 then redis.call('PUBLISH', channel, payload) end
    return deleted`,
    4,
  ),

  /** KEYS head; ARGV rev ('' : the latest), revision key prefix. nil, {head}, or {head, revision} (flat). */
  binsRead: luaScript(
    `local head = redis.call('HGETALL', KEYS[1])
    if #head == 0 then return false end
    local latest = tonumber(redis.call('HGET', KEYS[1], 'latest'))
    local rev = tonumber(ARGV[1]) or latest
    if rev < 1 or rev > latest then return {head} end
    return {head, redis.call('HGETALL', ARGV[2] .. rev)}`,
    1,
  ),

  /** KEYS revs; ARGV rev, revision key prefix. nil, or {number, revision} of the newest below `rev`. */
  binsBefore: luaScript(
    `local found = redis.call('ZREVRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '-inf', 'LIMIT', 0, 1)
    if #found == 0 then return false end
    return {found[1], redis.call('HGETALL', ARGV[2] .. found[1])}`,
    1,
  ),

  /** KEYS revs; ARGV revision key prefix. {rev, created, rev, created...}, newest first. */
  binsRevisions: luaScript(
    `local out = {}
    for _, rev in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, -1)) do
      out[#out + 1] = rev
      out[#out + 1] = redis.call('HGET', ARGV[1] .. rev, 'created')
    end
    return out`,
    1,
  ),

  /** KEYS head, revs; ARGV revision key prefix. nil, or {head, {rev, revision, ...}} newest first. */
  binsWhole: luaScript(
    `local head = redis.call('HGETALL', KEYS[1])
    if #head == 0 then return false end
    local revisions = {}
    for _, rev in ipairs(redis.call('ZREVRANGE', KEYS[2], 0, -1)) do
      revisions[#revisions + 1] = rev
      revisions[#revisions + 1] = redis.call('HGETALL', ARGV[1] .. rev)
    end
    return {head, revisions}`,
    2,
  ),

  /** KEYS list; ARGV offset, limit, head prefix, revs prefix, order ('asc' or 'desc'). {total, rows}. */
  binsPage: luaScript(
    `${ROW}
    local offset, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
    local range = ARGV[5] == 'asc' and 'ZRANGE' or 'ZREVRANGE'
    local rows = {}
    if limit > 0 then
      for _, bin in ipairs(redis.call(range, KEYS[1], offset, offset + limit - 1)) do
        rows[#rows + 1] = row(bin, ARGV[3], ARGV[4])
      end
    end
    return {redis.call('ZCARD', KEYS[1]), rows}`,
    1,
  ),

  /**
   * KEYS list; ARGV cursor, count, q ('' : every bin), head prefix, revs prefix. One ZSCAN step of the
   * listed bins: {next cursor, {bin, score, revision count, ...}} of those whose id or `folded` holds q.
   * A walk to cursor 0 sees every bin listed throughout it at least once (some twice).
   */
  binsScan: luaScript(
    `local cursor, count, q, heads, revs = unpack(ARGV)
    local reply = redis.call('ZSCAN', KEYS[1], cursor, 'COUNT', count)
    local items, out = reply[2], {}
    for i = 1, #items, 2 do
      local bin = items[i]
      local matches = q == '' or string.find(bin, q, 1, true)
      if not matches then matches = string.find(redis.call('HGET', heads .. bin, 'folded') or '', q, 1, true) end
      if matches then
        out[#out + 1] = bin
        out[#out + 1] = items[i + 1]
        out[#out + 1] = redis.call('ZCARD', revs .. bin)
      end
    end
    return {reply[1], out}`,
    1,
  ),

  /** KEYS list; ARGV head prefix, revs prefix, bins... The rows of those bins still listed, in that order. */
  binsRows: luaScript(
    `${ROW}
    local rows = {}
    for i = 3, #ARGV do
      if redis.call('ZSCORE', KEYS[1], ARGV[i]) then rows[#rows + 1] = row(ARGV[i], ARGV[1], ARGV[2]) end
    end
    return rows`,
    1,
  ),

  /**
   * KEYS list; ARGV q, cursor bin ('' : from the top), its score, chunk, skip, want, head prefix, revs
   * prefix. Reads the next `chunk` listed bins after the cursor and matches `q` (plain substring) in
   * each id and head's `folded`. Returns {matches, rows, bins read, last bin, its score}: rows of the
   * matches after the first `skip`, at most `want`. The cursor is found again by its rank; if that bin
   * moved or went meanwhile, by its score (bins saved in that same millisecond may then count twice).
   */
  binsFilter: luaScript(
    `${ROW}
    local q, after, afterScore = ARGV[1], ARGV[2], ARGV[3]
    local chunk, skip, want = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
    local start = 0
    if after ~= '' then
      local rank = redis.call('ZREVRANK', KEYS[1], after)
      if rank and redis.call('ZSCORE', KEYS[1], after) == afterScore then start = rank + 1
      else start = redis.call('ZCOUNT', KEYS[1], '(' .. afterScore, '+inf') end
    end
    local items = redis.call('ZREVRANGE', KEYS[1], start, start + chunk - 1, 'WITHSCORES')
    local matches, rows = 0, {}
    for i = 1, #items, 2 do
      local bin = items[i]
      local folded = redis.call('HGET', ARGV[7] .. bin, 'folded') or ''
      if string.find(bin, q, 1, true) or string.find(folded, q, 1, true) then
        matches = matches + 1
        if matches > skip and #rows < want then rows[#rows + 1] = row(bin, ARGV[7], ARGV[8]) end
      end
    end
    return {matches, rows, #items / 2, items[#items - 1] or '', items[#items] or ''}`,
    1,
  ),

  /** KEYS template; ARGV the template's JSON ('' : clear it), channel, payload. */
  binsTemplate: luaScript(
    `if ARGV[1] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[1]) end
    redis.call('PUBLISH', ARGV[2], ARGV[3])
    return 1`,
    1,
  ),
};
