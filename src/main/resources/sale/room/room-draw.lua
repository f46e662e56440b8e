-- A voucher's lottery once its arrival window has closed. Closes the window first when the caller's clock says it has
-- closed, so that the entrants are final.
-- KEYS[1] places   KEYS[2] the arrival window's closing marker   KEYS[3] the draw's marker (numbers written)
-- ARGV[1] '1' when the caller's clock says the arrival window has closed   ARGV[2] when the room's keys expire
--         (epoch ms), as every write of the room's sets it
-- Returns false while the window is open; else {'1', entrants in place order...} once drawn, or {'0', entrants in no
-- particular order...} while their numbers are still to be written (room-number.lua).
if redis.call('EXISTS', KEYS[2]) == 0 then
  if ARGV[1] ~= '1' then
    return false
  end
  redis.call('SET', KEYS[2], '1', 'PXAT', ARGV[2])
end
local drawn = redis.call('EXISTS', KEYS[3]) == 1
local entrants = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(4503599627370496')
table.insert(entrants, 1, drawn and '1' or '0')
return entrants
