-- The whole decision of the asynchronous seckill path, atomically: in stock? not bought yet? then
-- take a unit, remember the buyer and the pending order, and queue the order for MySQL.
-- KEYS[1] stock counter   KEYS[2] buyers set   KEYS[3] orders stream   KEYS[4] pending hash
-- KEYS[5] shopper -> latest order hash   KEYS[6] reset fence
--         (all hash-tagged {voucherId}, so this runs on Redis Cluster)
-- ARGV[1] shopper id   ARGV[2] order id   ARGV[3] created at (epoch millis)
-- Returns 0 accepted, 1 sold out, 2 already bought (order unknown), 3 stock not cached, 4 a stock reset
-- is under way, or, when the shopper already bought, the id of that order as a string (a Lua number
-- would round a 64-bit id).
-- A reset fences the voucher (stock-fence.lua) before it reads MySQL and lifts the fence when it has
-- written the new counter (stock-reset.lua): no order may fall in between, or the counter write would
-- erase its unit. First of all, so that nothing of the voucher is read while it changes.
if redis.call('EXISTS', KEYS[6]) == 1 then
  return 4
end
local stock = redis.call('GET', KEYS[1])
if not stock then
  return 3
end
-- The buyer before the stock: a shopper who took the last unit and asks again is told which order
-- is theirs, not "sold out".
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  local existing = redis.call('HGET', KEYS[5], ARGV[1])
  if existing == ARGV[2] then
    -- This very order: Redisson sent the script again after the connection died under the first
    -- run, which had accepted it. The answer the shopper never got was "accepted".
    return 0
  end
  if existing then
    return existing
  end
  return 2
end
if tonumber(stock) <= 0 then
  return 1
end
redis.call('DECR', KEYS[1])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[5], ARGV[1], ARGV[2])
redis.call('XADD', KEYS[3], '*', 'order', ARGV[2], 'shopper', ARGV[1], 'at', ARGV[3])
return 0
