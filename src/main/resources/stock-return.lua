-- Gives back a unit taken by stock-take.lua when its order did not commit.
-- Never recreates a counter that a stock reset or a Redis flush removed: a counter of 1 out of
-- nothing would sell stock that MySQL does not have.
-- KEYS[1]: the voucher's stock counter, hash-tagged {voucherId}
-- Returns the new stock, or -1 when the counter is not cached.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
return redis.call('INCR', KEYS[1])
