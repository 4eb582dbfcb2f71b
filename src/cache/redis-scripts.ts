/**
 * The Lua scripts the Redis store runs: each reads and writes one key atomically, so a
 * fleet's processes never race on a lease or a turn (and each works on a cluster).
 */

/** ARGV[1]: the holder's token, ARGV[2]: ms. Extends the lease only for its holder. */
export const RENEW_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";

/** ARGV[1]: the holder's token. Deletes the lease only for its holder. */
export const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

/** Redis's own clock in ms, so that every process of a fleet measures turns alike. */
const NOW =
  "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) ";

/** ARGV[1]: interval. Takes the turn if it has come (answers 0), else answers the wait. */
export const TAKE_TURN_SCRIPT =
  NOW +
  "local next = tonumber(redis.call('GET', KEYS[1]) or '0') " +
  'if next > now then return next - now end ' +
  "local interval = tonumber(ARGV[1]) if interval > 0 then redis.call('SET', KEYS[1], now + interval, 'PX', interval) end " +
  'return 0';

/** ARGV[1]: ms. Moves the next turn to at least now + ms. */
export const HOLD_OFF_SCRIPT =
  NOW +
  "local ms = tonumber(ARGV[1]) local next = tonumber(redis.call('GET', KEYS[1]) or '0') " +
  "if ms > 0 and now + ms > next then redis.call('SET', KEYS[1], now + ms, 'PX', ms) end " +
  'return 0';
