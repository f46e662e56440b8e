-- Writes the lottery numbers of a closed arrival window's entrants and marks the room drawn: once, whoever asks
-- first (every instance computes the same numbers from the seed and the entrants, so a second writer changes nothing).
-- KEYS[1] places   KEYS[2] the arrival window's closing marker   KEYS[3] the draw's marker
-- ARGV[1] when the room's keys expire (epoch ms)   ARGV[2] how many entrants were numbered   ARGV[3..] number, shopper
-- pairs, one for every entrant
-- Returns 1 when the room is drawn, 0 when the numbers were not written: the window is not closed, or the entrants are
-- not the ones numbered (neither can happen after a close, which no join reopens).
if redis.call('EXISTS', KEYS[3]) == 1 then
  return 1
end
if redis.call('EXISTS', KEYS[2]) == 0 or redis.call('ZCOUNT', KEYS[1], 0, 0) ~= tonumber(ARGV[2])
    or #ARGV ~= 2 + 2 * tonumber(ARGV[2]) then
  return 0
end
for i = 3, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[i], ARGV[i + 1])
end
redis.call('SET', KEYS[3], '1', 'PXAT', ARGV[1])
return 1
