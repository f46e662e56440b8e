-- A shopper joins a voucher's waiting room: one place each, decided here at once.
-- KEYS[1] places (sorted set)   KEYS[2] late arrivals' counter   KEYS[3] the arrival window's closing marker
-- KEYS[4] the room's controls (an admin may close it)   KEYS[5] the solved challenge, when the join needs one
-- (all hash-tagged {voucherId})
-- ARGV[1] the shopper   ARGV[2] '1' while the caller's clock says the arrival window is open, '' once it has closed
-- ARGV[3] how long the solution is remembered (ms)   ARGV[4] when the room's keys expire (epoch ms: some time after
-- the sale ends; every write sets it again, as SET clears it)
-- Returns {outcome, rank}: outcome 1 joined the draw, 2 joined behind it, 0 was in the room before (nothing
-- written, the solution not spent), -1 the solution was used before (nothing written), -2 an admin closed the room
-- (nothing written); rank from 0, -1 for none.
-- An entrant of the draw is stored with score 0: its lottery number exists only once the window has closed
-- (room-number.lua), so nothing here tells anyone's place before then.
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return {0, redis.call('ZRANK', KEYS[1], ARGV[1])}
end
if redis.call('HGET', KEYS[4], 'closed') == '1' then
  return {-2, -1}
end
if KEYS[5] and not redis.call('SET', KEYS[5], '1', 'NX', 'PX', ARGV[3]) then
  return {-1, -1}
end
-- The first caller whose clock says the window closed closes it for everyone: a join an instance with a slower
-- clock sends afterwards queues behind instead of changing the entrants the draw is computed from.
if ARGV[2] == '' then
  redis.call('SET', KEYS[3], '1', 'PXAT', ARGV[4])
end
local outcome
if redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('ZADD', KEYS[1], 0, ARGV[1])
  redis.call('PEXPIREAT', KEYS[1], ARGV[4])
  return {1, -1}
end
-- 2^52 and up: behind every lottery number, in arrival order; exact in a sorted set's double below 2^53.
-- Formatted here, as Lua would write a number this large with an exponent.
local arrival = redis.call('INCR', KEYS[2])
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[1], string.format('%.0f', 4503599627370496 + arrival), ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return {2, redis.call('ZRANK', KEYS[1], ARGV[1])}
