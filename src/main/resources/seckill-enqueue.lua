-- The whole decision of the asynchronous seckill path, atomically: in stock? not bought yet? then
-- take a unit, remember the buyer and the pending order, and queue the order for MySQL.
-- KEYS[1] stock counter   KEYS[2] buyers set   KEYS[3] orders stream   KEYS[4] pending hash
--         (all hash-tagged {voucherId}, so this runs on Redis Cluster)
-- ARGV[1] shopper id   ARGV[2] order id   ARGV[3] created at (epoch millis)
-- Returns 0 accepted, 1 sold out, 2 already bought, 3 stock not cached.
local stock = redis.call('GET', KEYS[1])
if not stock then
  return 3
end
if tonumber(stock) <= 0 then
  return 1
end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  return 2
end
redis.call('DECR', KEYS[1])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[1])
redis.call('XADD', KEYS[3], '*', 'order', ARGV[2], 'shopper', ARGV[1], 'at', ARGV[3])
return 0
