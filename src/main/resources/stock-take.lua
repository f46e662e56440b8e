-- Takes one unit of a voucher's cached stock for a shopper (sync path), atomically, never below zero.
-- A shopper already known to hold an order takes nothing: otherwise a repeat request would hold a
-- unit while it waits to be refused, and other shoppers would be told "sold out" meanwhile.
-- KEYS[1]: the voucher's stock counter   KEYS[2]: its buyer set   KEYS[3]: its reset fence
--          (hash-tagged {voucherId})
-- ARGV[1]: shopper id
-- Returns 1 when a unit was taken, 0 when sold out, -1 when the counter is not cached,
-- 2 when the shopper already bought, 3 when a stock reset is under way (see stock-fence.lua).
if redis.call('EXISTS', KEYS[3]) == 1 then
  return 3
end
local stock = redis.call('GET', KEYS[1])
if not stock then
  return -1
end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  return 2
end
if tonumber(stock) <= 0 then
  return 0
end
redis.call('DECR', KEYS[1])
return 1
