-- Gives up on one order after its retries: returns its unit of stock, lets the shopper buy again,
-- records it as failed and in the dead-letter stream, and acknowledges its message. Idempotent: a
-- second call for the same order (two consumers racing) compensates nothing twice.
-- The shopper -> latest order index keeps naming this order: it is the shopper's latest, now FAILED
-- (which is what they are told when they look it up), and since the shopper left the buyer set the
-- purchase script no longer reads it; their next order overwrites it.
-- KEYS[1] stock   KEYS[2] buyers   KEYS[3] orders stream   KEYS[4] pending   KEYS[5] failed
-- KEYS[6] dead-letter stream   KEYS[7] attempts            (all hash-tagged {voucherId})
-- ARGV[1] consumer group   ARGV[2] message id   ARGV[3] order id   ARGV[4] shopper id   ARGV[5] reason
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
end
redis.call('XACK', KEYS[3], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[7], ARGV[2])
return compensated
