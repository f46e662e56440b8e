-- Sets a voucher's stock counter from what MySQL says is left (a stock reset, a rebuild after a loss),
-- less the units sync requests hold right now: they took them from the old counter and will commit
-- (MySQL's stock goes down then, and the record goes) or give them back (the counter goes up again).
-- Atomic, so a unit taken while the caller computed its number is counted either way.
-- Units of orders already committed must be settled first (sync-unit-settle.lua), or they are counted
-- twice.
-- KEYS[1]: stock counter   KEYS[2]: sync units in flight   KEYS[3]: the sale's generation   (hash-tagged {voucherId})
-- ARGV[1]: units left in MySQL (minus orders on their way to it, for the async path)
-- ARGV[2]: the sale's generation in MySQL: a rebuild after a loss restores it with the counter, or the orders
--          accepted from then on would be journaled as an earlier sale's, and a failover's replay would leave them out
-- Returns the counter set.
local stock = tonumber(ARGV[1]) - redis.call('HLEN', KEYS[2])
redis.call('SET', KEYS[1], stock)
redis.call('SET', KEYS[3], ARGV[2])
return stock
