-- Fences a voucher's stock for a reset, atomically: only when no accepted order is still on its way to
-- MySQL (a reset would count it against the new stock), and only one reset at a time. From then on the
-- purchase script refuses every order until stock-reset.lua writes the new counter and
-- lifts the fence; the TTL lifts it anyway if the instance resetting dies.
-- KEYS[1] reset fence   KEYS[2] pending orders hash   (hash-tagged {voucherId})
-- ARGV[1] this reset's token   ARGV[2] TTL in milliseconds
-- Returns 0 fenced, n > 0 orders still pending (not fenced), -1 another reset holds the fence.
local pending = redis.call('HLEN', KEYS[2])
if pending > 0 then
  return pending
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 0
end
return -1
