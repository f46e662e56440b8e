-- Lifts a reset's fence without writing anything: the reset failed before its counter write (MySQL refused,
-- the voucher vanished), so the old counter stands. Only this reset's own fence: after a TTL expiry it may
-- belong to another.
-- KEYS[1] reset fence   ARGV[1] this reset's token
-- Returns 1 when lifted.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
