-- The sweeper returns the unit of a request that took it more than the unit timeout ago and has no
-- order in MySQL: the unit goes back to stock and its record moves to the returned hash, in one step
-- that does nothing when the record is gone (the request finished meanwhile, or another instance's
-- sweeper was first).
-- KEYS[1]: stock counter   KEYS[2]: sync units in flight   KEYS[3]: units the sweeper returned
--          (all hash-tagged {voucherId})
-- ARGV[1]: order id   ARGV[2]: returned at, epoch millis
-- Returns 1 when the unit went back, 0 when its record is gone, -1 when the counter is not cached (the
-- record stays: the rebuild that recreates the counter counts it as in flight).
local record = redis.call('HGET', KEYS[2], ARGV[1])
if not record then
  return 0
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
local shopper = string.match(record, ':(%d+)$')
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2] .. ':' .. shopper)
redis.call('INCR', KEYS[1])
return 1
