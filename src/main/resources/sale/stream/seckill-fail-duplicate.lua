-- Gives up on an order that MySQL refuses because its shopper already holds an order of the
-- voucher (a different order id). Unlike seckill-fail.lua it returns no unit and keeps the shopper in
-- the buyer set: the confirmed order holds both, and a unit handed back here would be sold twice.
-- Records the order as failed and dead-letters it (compensated 0) so that people can see it, and
-- acknowledges its message. Idempotent like seckill-fail.lua.
-- The shopper -> order index forgets this order (if it still names it): the shopper's order is the
-- confirmed one, whose id only MySQL knows, and a buyer without an index entry is looked up there.
-- KEYS[1] orders stream   KEYS[2] pending   KEYS[3] failed   KEYS[4] dead-letter stream   KEYS[5] attempts
-- KEYS[6] shopper -> latest order            (all hash-tagged {voucherId})
-- ARGV[1] consumer group   ARGV[2] message id   ARGV[3] order id   ARGV[4] shopper id   ARGV[5] reason
-- Returns 1 when this call gave it up, 0 when it had been done already.
local done = 0
if redis.call('HDEL', KEYS[2], ARGV[3]) == 1 then
  redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
  redis.call('XADD', KEYS[4], '*', 'order', ARGV[3], 'shopper', ARGV[4], 'message', ARGV[2], 'reason', ARGV[5],
      'compensated', '0')
  if redis.call('HGET', KEYS[6], ARGV[4]) == ARGV[3] then
    redis.call('HDEL', KEYS[6], ARGV[4])
  end
  done = 1
end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
redis.call('HDEL', KEYS[5], ARGV[2])
return done
