-- The whole decision of the asynchronous seckill path, atomically, for one or more orders of one voucher
-- (concurrent purchases share one call, see EnqueueCoalescer): for each order in turn, in stock? not
-- bought yet? then take a unit, remember the buyer and the pending order, and queue the order for MySQL.
-- Orders are decided in ARGV order, exactly as if each had been a call of its own, one after the other.
-- KEYS[1] stock counter   KEYS[2] buyers set   KEYS[3] orders stream   KEYS[4] pending hash
-- KEYS[5] shopper -> latest order hash   KEYS[6] reset fence
--         (all hash-tagged {voucherId}, so this runs on Redis Cluster)
-- ARGV    one triple per order: shopper id, order id, created at (epoch millis)
-- Returns one answer per order, in ARGV order: 0 accepted, 1 sold out, 2 already bought (order unknown),
-- 3 stock not cached, 4 a stock reset is under way, or, when the shopper already bought, the id of that
-- order as a string (a Lua number would round a 64-bit id).
local orders = #ARGV / 3
local answers = {}
local function all(code)
  for i = 1, orders do
    answers[i] = code
  end
  return answers
end
-- A reset fences the voucher (stock-fence.lua) before it reads MySQL and lifts the fence when it has
-- written the new counter (stock-reset.lua): no order may fall in between, or the counter write would
-- erase its unit. First of all, so that nothing of the voucher is read while it changes.
if redis.call('EXISTS', KEYS[6]) == 1 then
  return all(4)
end
local stock = redis.call('GET', KEYS[1])
if not stock then
  return all(3)
end
stock = tonumber(stock)
for i = 1, orders do
  local shopper, order, at = ARGV[3 * i - 2], ARGV[3 * i - 1], ARGV[3 * i]
  local buyer = redis.call('SISMEMBER', KEYS[2], shopper) == 1
  local existing = buyer and redis.call('HGET', KEYS[5], shopper)
  if existing == order then
    -- This very order: Redisson sent the script again after the connection died under the first
    -- run, which had accepted it. The answer the shopper never got was "accepted".
    answers[i] = 0
  elseif stock <= 0 then
    -- Sold out before already bought, as in stock-take.lua and as both paths answer from memory once the
    -- voucher is sold out: the same answer in either mode. A retry with an Idempotency-Key still gets its
    -- order back (the service looks it up).
    answers[i] = 1
  elseif buyer then
    answers[i] = existing or 2
  else
    redis.call('DECR', KEYS[1])
    stock = stock - 1
    redis.call('SADD', KEYS[2], shopper)
    redis.call('HSET', KEYS[4], order, shopper)
    redis.call('HSET', KEYS[5], shopper, order)
    redis.call('XADD', KEYS[3], '*', 'order', order, 'shopper', shopper, 'at', at)
    answers[i] = 0
  end
end
return answers
