-- A sync order committed in MySQL: its unit stays sold. Drops the unit's record and makes the shopper a
-- buyer (so a repeat request is refused before it takes a unit), with the order in the shopper -> order
-- index. Run by the request right after its commit, by the sweeper for a request that died after its
-- commit, and before a stock reset or rebuild re-bases the counter.
-- A unit the sweeper had returned (the request outlived the unit timeout and committed after all) is
-- taken from stock again, so that Redis stays in step with MySQL; only once, since the record goes.
-- KEYS[1]: stock counter   KEYS[2]: buyer set   KEYS[3]: shopper -> order index
-- KEYS[4]: sync units in flight   KEYS[5]: units the sweeper returned   (all hash-tagged {voucherId})
-- ARGV[1]: shopper id   ARGV[2]: order id   ARGV[3]: '1' to take a returned unit again, '0' when the
--          caller re-bases the counter from MySQL next (which counts the order already)
-- Returns 1 (a unit in flight, settled), 2 (a returned unit, settled), 0 (no record: settled before).
local settled = 0
if redis.call('HDEL', KEYS[4], ARGV[2]) == 1 then
  settled = 1
elseif redis.call('HDEL', KEYS[5], ARGV[2]) == 1 then
  settled = 2
  if ARGV[3] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('DECR', KEYS[1])
  end
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return settled
