-- Gives up on one order after its retries: returns its unit of stock, lets the shopper buy again,
-- records it as failed and in the dead-letter stream, and acknowledges its message. Idempotent: a
-- second call for the same order (two consumers racing) compensates nothing twice.
-- The shopper -> latest order index keeps naming this order: it is the shopper's latest, now FAILED
-- (which is what they are told when they look it up), and since the shopper left the buyer set the
-- purchase script no longer reads it; their next order overwrites it.
-- KEYS[1] stock   KEYS[2] buyers   KEYS[3] orders stream   KEYS[4] pending   KEYS[5] failed
-- KEYS[6] dead-letter stream   KEYS[7] attempts
-- KEYS[8] the waiting room's spent admissions   KEYS[9] its open admissions   KEYS[10] shopper -> when let in
--                                                             (all hash-tagged {voucherId})
-- ARGV[1] consumer group   ARGV[2] message id   ARGV[3] order id   ARGV[4] shopper id   ARGV[5] reason
-- ARGV[6] how long a room's admission lasts (ms): an admission this order spent is given back with the unit, in the
--         same step, so that the room cannot let another place in on that unit first ('' leaves it to the room)
-- Returns 1 when this call compensated, 0 when it had been done already.
local compensated = 0
if redis.call('HDEL', KEYS[4], ARGV[3]) == 1 then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('INCR', KEYS[1])
  end
  redis.call('SREM', KEYS[2], ARGV[4])
  redis.call('HSET', KEYS[5], ARGV[3], ARGV[4])
  redis.call('XADD', KEYS[6], '*', 'order', ARGV[3], 'shopper', ARGV[4], 'message', ARGV[2], 'reason', ARGV[5])
  compensated = 1
  if ARGV[6] ~= '' and redis.call('HGET', KEYS[8], ARGV[4]) == ARGV[3] then
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    -- Held for its lifetime from now; the shopper's next look issues its ticket (room-place.lua).
    if tonumber(redis.call('GET', KEYS[1]) or '0') - redis.call('ZCOUNT', KEYS[9], now + 1, '+inf') > 0 then
      local ttl = redis.call('PTTL', KEYS[8])
      redis.call('HDEL', KEYS[8], ARGV[4])
      redis.call('HSET', KEYS[10], ARGV[4], now)
      redis.call('ZADD', KEYS[9], now + tonumber(ARGV[6]), ARGV[4])
      if ttl > 0 then
        redis.call('PEXPIRE', KEYS[9], ttl)
        redis.call('PEXPIRE', KEYS[10], ttl)
      end
    end
  end
end
redis.call('XACK', KEYS[3], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[7], ARGV[2])
return compensated
