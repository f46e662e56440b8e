-- Takes one unit of a voucher's cached stock for a shopper's request (sync path), atomically, never
-- below zero, and records it under the order id the request will commit with, so that a unit whose
-- request dies before it commits or gives the unit back is found and returned (SyncUnitSweeper).
-- KEYS[1]: the voucher's stock counter   KEYS[2]: its buyer set   KEYS[3]: its sync units in flight
-- KEYS[4]: its reset fence               (all hash-tagged {voucherId})
-- ARGV[1]: shopper id   ARGV[2]: the request's order id   ARGV[3]: taken at, epoch millis (the caller's
--          clock: a script's time would differ on a replica that replays it)
-- Returns 1 when a unit was taken, 0 when sold out, -1 when the counter is not cached,
-- 2 when the shopper already bought, 3 when a stock reset is under way (see stock-fence.lua).
-- Sent again by the client after a lost reply: the first run took the unit (maybe the last one), before
-- any fence that stands now, and the reset counted it among the units in flight.
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then
  return 1
end
if redis.call('EXISTS', KEYS[4]) == 1 then
  return 3
end
local stock = redis.call('GET', KEYS[1])
if not stock then
  return -1
end
-- Sold out before already bought, as in seckill-enqueue.lua and as both paths answer from memory once a
-- voucher is sold out: the same situation gets the same answer in either mode. Either way a buyer takes
-- nothing: a repeat request holding a unit while it waits to be refused would make others hear "sold out".
if tonumber(stock) <= 0 then
  return 0
end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  return 2
end
redis.call('DECR', KEYS[1])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3] .. ':' .. ARGV[1])
return 1
