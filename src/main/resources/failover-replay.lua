-- After the Redis master changed: the orders an instance answered 202 a moment before, put back into the new
-- master when it lacks them (a failover to a replica that had not received them). Idempotent: an order the
-- master has is left alone, so instances may replay the same journal together or twice.
-- KEYS[1] stock counter   KEYS[2] buyer set   KEYS[3] shopper -> latest order   KEYS[4] reset fence
-- KEYS[5] pending orders (order -> shopper)   KEYS[6] orders stream   (all hash-tagged {voucherId})
-- ARGV per order: shopper id, order id, at (epoch millis, as purchase.lua got it), and '1' when MySQL already has
-- the order (its Redis half is restored: counter, buyer, latest order; nothing is queued again) or '0' (the order
-- is queued again exactly as purchase.lua queued it, and goes on to MySQL).
-- Returns one answer per order: 0 the master has it, 1 re-applied, 2 lost (not in MySQL and cannot be re-applied:
-- no unit left, the shopper bought again since, no counter, a reset under way), 3 in MySQL but its unit was sold
-- again by the new master (a later order of that voucher will be refused by MySQL's stock guard).
local fenced = redis.call('EXISTS', KEYS[4]) == 1
local answers = {}
for i = 1, #ARGV / 4 do
  local shopper, order, at, inMySql = ARGV[4 * i - 3], ARGV[4 * i - 2], ARGV[4 * i - 1], ARGV[4 * i] == '1'
  local stock = redis.call('GET', KEYS[1])
  stock = stock and tonumber(stock)
  if redis.call('HGET', KEYS[3], shopper) == order or redis.call('HEXISTS', KEYS[5], order) == 1 then
    answers[i] = 0
  elseif redis.call('SISMEMBER', KEYS[2], shopper) == 1 then
    -- The shopper bought again on the new master: of two orders one must go. In MySQL, ours stands and MySQL's
    -- one-order-per-shopper guard refuses the other; not in MySQL, ours is the one lost.
    answers[i] = inMySql and 3 or 2
  elseif fenced or not stock or stock <= 0 then
    answers[i] = inMySql and 3 or 2
  else
    redis.call('DECR', KEYS[1])
    redis.call('SADD', KEYS[2], shopper)
    redis.call('HSET', KEYS[3], shopper, order)
    if not inMySql then
      redis.call('HSET', KEYS[5], order, shopper)
      redis.call('XADD', KEYS[6], '*', 'order', order, 'shopper', shopper, 'at', at)
    end
    answers[i] = 1
  end
end
return answers
