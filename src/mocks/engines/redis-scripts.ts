import { luaScript } from '../../store/redis/client.js';

/*
 * The mocks' Lua scripts (layout: redis.ts). Each runs whole, alone on Redis: a write and its
 * notice land together, and two instances' saves never interleave. Scripts that reach keys by name
 * build them from key prefixes passed in ARGV (as the bins' do): one Redis, not a cluster.
 * Redis does not undo a script that fails part-way: arguments arrive checked (redis.ts), the
 * stats save (many keys) reads every key it writes before writing, and when Redis is out of memory
 * the first write is the one refused.
 */

export const mockScripts = {
  /** KEYS endpoints, schema; ARGV name, record JSON, channel, payload, schema version. */
  mocksPutEndpoint: luaScript(
    `local name, record, channel, payload, version = unpack(ARGV)
    redis.call('HSET', KEYS[1], name, record)
    redis.call('HSETNX', KEYS[2], 'mocks', version)
    redis.call('PUBLISH', channel, payload)
    return 1`,
    2,
  ),

  /** KEYS endpoints; ARGV name, channel, payload. 1 if there was a record (deleted, and published), 0 if not. */
  mocksDeleteEndpoint: luaScript(
    `local deleted = redis.call('HDEL', KEYS[1], ARGV[1])
    if deleted == 1 then redis.call('PUBLISH', ARGV[2], ARGV[3]) end
    return deleted`,
    1,
  ),

  /**
   * KEYS collection, schema; ARGV seed, value, channel, payload, schema version, expected state version.
   * Saves and publishes only if the state's version (0: no state) is the expected one: 1 if so, 0 if not.
   */
  mocksSaveCollection: luaScript(
    `local seed, value, channel, payload, version, expected = unpack(ARGV)
    local stored = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
    if stored ~= tonumber(expected) then return 0 end
    redis.call('HSET', KEYS[1], 'seed', seed, 'value', value, 'version', stored + 1)
    redis.call('HSETNX', KEYS[2], 'mocks', version)
    redis.call('PUBLISH', channel, payload)
    return 1`,
    2,
  ),

  /** KEYS collection; ARGV channel, payload. Publishes if there was a state. */
  mocksDropCollection: luaScript(
    `local deleted = redis.call('DEL', KEYS[1])
    if deleted == 1 then redis.call('PUBLISH', ARGV[1], ARGV[2]) end
    return deleted`,
    1,
  ),

  /**
   * KEYS counted, schema; ARGV counters prefix, log prefix, schema version, then per endpoint (engine.ts
   * EndpointSave): name, hits, lastCall ('' : none), sequence, skipped, keep, entry count, the entries.
   * Hits are added, lastCall kept if later (ISO strings compare as text), sequence replaced; entries
   * numbered on from the log's newest after `skipped`; then the log keeps what is numbered above its
   * newest less `keep`, as the SQLite trigger does.
   */
  mocksSaveStats: luaScript(
    `local counters, logs, version = ARGV[1], ARGV[2], ARGV[3]
    -- Every read first, every write after: a key holding something else fails the batch before it writes.
    local items, i = {}, 4
    while i <= #ARGV do
      local item = {name = ARGV[i], at = i, count = tonumber(ARGV[i + 6])}
      item.log, item.counter = logs .. item.name, counters .. item.name
      item.newest = tonumber(redis.call('ZREVRANGE', item.log, 0, 0, 'WITHSCORES')[2] or '0')
      item.lastCall = redis.call('HGET', item.counter, 'lastCall')
      items[#items + 1] = item
      i = i + 7 + item.count
    end
    redis.call('SISMEMBER', KEYS[1], '')
    redis.call('HGET', KEYS[2], 'mocks')
    for _, item in ipairs(items) do
      local i, newest = item.at, item.newest
      local hits, lastCall, sequence, skipped, keep = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], tonumber(ARGV[i + 4]), tonumber(ARGV[i + 5])
      if item.count > 0 then
        local at = newest + skipped
        for j = 1, item.count do
          redis.call('ZADD', item.log, at + j, (at + j) .. ' ' .. ARGV[i + 6 + j])
        end
        newest = at + item.count
      end
      redis.call('ZREMRANGEBYSCORE', item.log, '-inf', newest - keep)
      redis.call('HINCRBY', item.counter, 'hits', hits)
      if lastCall ~= '' and (not item.lastCall or lastCall > item.lastCall) then redis.call('HSET', item.counter, 'lastCall', lastCall) end
      redis.call('HSET', item.counter, 'sequence', sequence)
      redis.call('SADD', KEYS[1], item.name)
    end
    redis.call('HSETNX', KEYS[2], 'mocks', version)
    return 1`,
    2,
  ),

  /** KEYS counters, log; ARGV log size. Cuts the log to its newest `size`, then {hits, lastCall, sequence, entries}. */
  mocksLoadStats: luaScript(
    `local newest = tonumber(redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2] or '0')
    redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', newest - tonumber(ARGV[1]))
    local c = redis.call('HMGET', KEYS[1], 'hits', 'lastCall', 'sequence')
    return {c[1] or '0', c[2] or '', c[3] or '0', redis.call('ZRANGE', KEYS[2], 0, -1)}`,
    2,
  ),

  /** KEYS scenarios, schema; ARGV channel, payload, schema version, then name and state pairs. Sets and publishes. */
  mocksSetScenarios: luaScript(
    `local channel, payload, version = ARGV[1], ARGV[2], ARGV[3]
    for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
    redis.call('HSETNX', KEYS[2], 'mocks', version)
    redis.call('PUBLISH', channel, payload)
    return 1`,
    2,
  ),

  /** KEYS scenarios; ARGV channel, payload. Forgets every state; publishes if there were any. */
  mocksClearScenarios: luaScript(
    `local deleted = redis.call('DEL', KEYS[1])
    if deleted == 1 then redis.call('PUBLISH', ARGV[1], ARGV[2]) end
    return deleted`,
    1,
  ),

  /** KEYS counted; ARGV counters prefix, log prefix, names. Deletes their counters and logs. */
  mocksForget: luaScript(
    `for i = 3, #ARGV do
      redis.call('DEL', ARGV[1] .. ARGV[i], ARGV[2] .. ARGV[i])
      redis.call('SREM', KEYS[1], ARGV[i])
    end
    return 1`,
    1,
  ),
};
