-- A voucher's lottery, once drawn: its entrants in the order of their places. Closes the draw first when the caller's
-- clock says the arrival window has closed, so the list published is the final one.
-- KEYS[1] places   KEYS[2] the draw's marker
-- ARGV[1] '1' when the caller's clock says the arrival window has closed   ARGV[2] when the room's keys expire
--         (epoch ms), as every write of the room's sets it
-- Returns the entrants' shopper ids in place order, or false while the draw is open.
if redis.call('EXISTS', KEYS[2]) == 0 then
  if ARGV[1] ~= '1' then
    return false
  end
  redis.call('SET', KEYS[2], '1', 'PXAT', ARGV[2])
end
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(4503599627370496')
