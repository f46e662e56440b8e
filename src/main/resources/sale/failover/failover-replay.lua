-- After the Redis master changed: the orders an instance answered 202 a moment before, put back into the new
-- master when it lacks them (a failover to a replica that had not received them). Idempotent: an order the
-- master has is left alone, so instances may replay the same journal together or twice.
-- KEYS[1] stock counter   KEYS[2] buyer set   KEYS[3] shopper -> latest order   KEYS[4] reset fence
-- KEYS[5] pending orders (order -> shopper)   KEYS[6] orders stream   KEYS[7] given-up orders (order -> shopper)
-- KEYS[8] orders whose unit went back (expired, cancelled)   KEYS[9] the sale's generation (absent: 0)
-- (all hash-tagged {voucherId})
-- ARGV per order: shopper id, order id, at (epoch millis, as purchase.lua got it), '1' when MySQL already has
-- the order (its Redis half is restored: counter, buyer, latest order; nothing is queued again) or '0' (the order
-- is queued again exactly as purchase.lua queued it, and goes on to MySQL), and the generation of the sale the
-- order was accepted in (as purchase.lua answered it).
-- Returns one answer per order:
--   0 the master has it, or has what came after it: given up (seckill-fail*.lua), its unit returned
--     (unit-return.lua), or, for an order MySQL has, the shopper's later order that MySQL will refuse as a
--     duplicate keeping its unit (seckill-fail-duplicate.lua): nothing to put back
--   1 re-applied
--   2 lost: not in MySQL, and cannot be re-applied (no unit left, the shopper bought again, no counter, a reset
--     under way)
--   3 in MySQL, but the new master had sold its unit again: restored all the same, the counter below zero, so that
--     the later order MySQL refuses gives back a unit that nets to none (a counter left at 0 would sell it again,
--     and again, each time refused by MySQL)
--   4 an earlier sale's: a stock reset started the sale afresh since (stock-reset.lua, its orders deleted), so the
--     order is no longer the sale's and nothing of it comes back
local fenced = redis.call('EXISTS', KEYS[4]) == 1
local sale = tonumber(redis.call('GET', KEYS[9]) or '0')
local answers = {}
for i = 1, #ARGV / 5 do
  local shopper, order, at, inMySql = ARGV[5 * i - 4], ARGV[5 * i - 3], ARGV[5 * i - 2], ARGV[5 * i - 1] == '1'
  local generation = tonumber(ARGV[5 * i])
  local stock = redis.call('GET', KEYS[1])
  stock = stock and tonumber(stock)
  if generation < sale then
    answers[i] = 4
  elseif generation > sale then
    -- This master lacks the reset that started the order's sale (it had not reached it): its counter and buyers
    -- are the old sale's, and nothing can be put back into them.
    answers[i] = inMySql and 0 or 2
  elseif redis.call('HGET', KEYS[3], shopper) == order or redis.call('HEXISTS', KEYS[5], order) == 1
      or redis.call('HEXISTS', KEYS[7], order) == 1 or redis.call('SISMEMBER', KEYS[8], order) == 1 then
    answers[i] = 0
  elseif redis.call('SISMEMBER', KEYS[2], shopper) == 1 then
    -- The shopper bought again on the new master: of two orders one must go. In MySQL, ours stands and MySQL's
    -- one-order-per-shopper guard refuses the other, whose unit stays sold in its place; not in MySQL, ours is lost.
    answers[i] = inMySql and 0 or 2
  elseif fenced or not stock then
    -- A reset or a rebuild reads MySQL: it counts an order MySQL has, and cannot know one it lacks.
    answers[i] = inMySql and 0 or 2
  elseif stock <= 0 and not inMySql then
    answers[i] = 2
  else
    answers[i] = stock <= 0 and 3 or 1
    redis.call('DECR', KEYS[1])
    redis.call('SADD', KEYS[2], shopper)
    redis.call('HSET', KEYS[3], shopper, order)
    if not inMySql then
      redis.call('HSET', KEYS[5], order, shopper)
      redis.call('XADD', KEYS[6], '*', 'order', order, 'shopper', shopper, 'at', at)
    end
  end
end
return answers
