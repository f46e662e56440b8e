-- Gives back the unit purchase.lua took (holding) for a request whose order did not commit, and drops its
-- record, at most once: a unit the sweeper already returned (its record moved to the returned hash)
-- is not returned again, and a second run of this script (sent again after a lost reply) finds nothing.
-- Never recreates a counter that a Redis flush removed: a counter of 1 out of nothing would sell stock
-- that MySQL does not have (the rebuild counts from MySQL instead).
-- KEYS[1]: the voucher's stock counter   KEYS[2]: its sync units in flight   KEYS[3]: units the sweeper
--          returned   (all hash-tagged {voucherId})
-- ARGV[1]: the request's order id
-- Returns 1 when the unit went back, 2 when the sweeper had returned it already, 0 when nothing was
-- recorded, -1 when the counter is not cached (the record is dropped, nothing is returned).
if redis.call('HDEL', KEYS[2], ARGV[1]) == 1 then
  if redis.call('EXISTS', KEYS[1]) == 0 then
    return -1
  end
  redis.call('INCR', KEYS[1])
  return 1
end
if redis.call('HDEL', KEYS[3], ARGV[1]) == 1 then
  return 2
end
return 0
