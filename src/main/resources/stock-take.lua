-- Takes one unit of a voucher's cached stock, atomically, never below zero.
-- KEYS[1]: the voucher's stock counter, hash-tagged {voucherId}
-- Returns 1 when a unit was taken, 0 when sold out, -1 when the counter is not cached.
local stock = redis.call('GET', KEYS[1])
if not stock then
  return -1
end
if tonumber(stock) <= 0 then
  return 0
end
redis.call('DECR', KEYS[1])
return 1
