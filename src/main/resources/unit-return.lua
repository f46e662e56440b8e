-- Puts the unit of an expired or cancelled order back into the stock counter, once per order: MySQL already took
-- it back (in the transaction that ended the order); this is the Redis half, run after that commit and again
-- until it is confirmed. The set of returned order ids decides: a retry, a crash between MySQL and Redis, or
-- two instances returning the same order add the unit once.
-- Never recreates a counter a Redis flush removed (a rebuild counts the unit from MySQL instead, and marks the
-- order returned first: see StreamReconciler).
-- KEYS[1] the voucher's stock counter   KEYS[2] its returned order ids (both hash-tagged {voucherId})
-- ARGV[1] the order id
-- Returns 1 when the unit went back now, 0 when it had gone back before, -1 when the counter is not cached
-- (nothing is marked: the caller tries again after the rebuild).
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then
  return 0
end
redis.call('INCR', KEYS[1])
return 1
