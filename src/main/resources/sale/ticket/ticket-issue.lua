-- Issues a shopper's purchase ticket for a voucher, spending the challenge solution it was issued for, at once:
-- a solution sent twice (a replay, or two tabs) gets one ticket.
-- KEYS[1] the shopper's ticket   KEYS[2] the solved challenge, when the voucher has one (hash-tagged {voucherId})
-- ARGV[1] the ticket   ARGV[2] its lifetime (ms)   ARGV[3] how long the solution is remembered (ms): at least
--         until its challenge expires
-- Returns 1 issued, 0 the solution was used before (nothing written).
if KEYS[2] and not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[3]) then
  return 0
end
-- A new ticket replaces the shopper's last one: one live ticket per shopper and voucher.
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
