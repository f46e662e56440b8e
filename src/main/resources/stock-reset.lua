-- The Redis half of a stock reset, atomically, after MySQL committed it: writes the new counter, forgets
-- the buyers of a fresh sale, and lifts this reset's fence, so that the first order after the fence sees
-- all of it.
-- The counter is the new stock minus the orders still pending: none while the fence held (stock-fence.lua
-- fenced only with none pending, and no order got in since). If the fence expired first (a reset slower
-- than seckill.stock.reset-fence), orders accepted meanwhile are pending, not in the stock MySQL just set,
-- and each will take a unit there: counting them here keeps Redis = MySQL - pending.
-- Less the units sync requests hold too (taken before the fence, settled first if their orders committed,
-- see SyncUnitSweeper.settleCommitted): each commits against the new stock (MySQL's goes down, the record
-- goes) or gives its unit back (the counter goes up) once the reset releases the voucher's lock.
-- KEYS[1] stock counter   KEYS[2] pending orders hash   KEYS[3] reset fence   KEYS[4] buyers set
-- KEYS[5] failed orders hash   KEYS[6] shopper -> latest order hash   KEYS[7] sync units in flight
-- KEYS[8] returned order ids (unit-return.lua)   KEYS[9] the sale's generation
--         (all hash-tagged {voucherId})
-- ARGV[1] this reset's token   ARGV[2] the new stock   ARGV[3] '1' when the orders were deleted (a fresh sale)
-- ARGV[4] the sale's generation as MySQL committed it: one more for a fresh sale. Written with the counter, so
--         that an order accepted from now on is journaled with it (purchase.lua answers it), and a failover's
--         replay (failover-replay.lua) leaves out the orders of the sale this one replaced.
-- Returns 1 when the fence was still this reset's, 0 when it had expired.
local pending = redis.call('HLEN', KEYS[2])
redis.call('SET', KEYS[9], ARGV[4])
redis.call('SET', KEYS[1], tonumber(ARGV[2]) - pending - redis.call('HLEN', KEYS[7]))
if ARGV[3] == '1' then
  -- Nobody has bought, nobody's order failed, the index names no order, and no order's unit came back.
  redis.call('DEL', KEYS[4], KEYS[5], KEYS[6], KEYS[8])
end
if redis.call('GET', KEYS[3]) == ARGV[1] then
  redis.call('DEL', KEYS[3])
  return 1
end
return 0
