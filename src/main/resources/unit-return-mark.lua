-- Marks orders as returned without adding their units: for a rebuild of the counter from MySQL, whose stock
-- already holds those units. Run before the counter is set, so a return still on its way adds nothing after.
-- KEYS[1] the voucher's returned order ids (hash-tagged {voucherId})
-- ARGV order ids
-- Returns how many were not marked yet.
local added = 0
for from = 1, #ARGV, 4000 do
  added = added + redis.call('SADD', KEYS[1], unpack(ARGV, from, math.min(from + 3999, #ARGV)))
end
return added
