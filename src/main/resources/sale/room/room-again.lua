-- A shopper whose admission ran out unused queues again behind everyone: a new place, after every place and late
-- arrival there is now. The place they were let in from stays where it was, let in, so that no place behind it moves
-- (a page waiting on the room's public state knows its place by number) and the published draw stays as it was.
-- KEYS[1] places   KEYS[2] late arrivals' counter   KEYS[3] shopper -> their place's member once queued again
-- KEYS[4] places let in   KEYS[5] open admissions   KEYS[6] spent admissions   KEYS[7] shopper -> when let in
-- KEYS[8] buyers   KEYS[9] the room's controls (an admin may close it)   (all hash-tagged {voucherId})
-- ARGV[1] the shopper   ARGV[2] when the room's keys expire (epoch ms)
-- Returns the shopper's rank from 0 after the call (their place as it was when they are not let in, or let in with
-- an admission still theirs or spent, or a buyer), -1 when they are not in the room, -2 when an admin closed the
-- room (nothing written). So a second call changes nothing.
local member = redis.call('HGET', KEYS[3], ARGV[1]) or ARGV[1]
local rank = redis.call('ZRANK', KEYS[1], member)
if not rank then
  return -1
end
if rank >= tonumber(redis.call('GET', KEYS[4]) or '0') or redis.call('HEXISTS', KEYS[6], ARGV[1]) == 1
    or redis.call('SISMEMBER', KEYS[8], ARGV[1]) == 1 then
  return rank
end
if redis.call('HGET', KEYS[9], 'closed') == '1' then
  return -2
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
-- Held still: within the presence window, or looked at and within its lifetime.
if tonumber(redis.call('ZSCORE', KEYS[5], ARGV[1]) or '0') > now then
  return rank
end
-- Behind every lottery number and every late arrival so far, as a late arrival (room-join.lua); the member names the
-- shopper before its '#' (room-place.lua lets the shopper in by it).
local arrival = redis.call('INCR', KEYS[2])
member = ARGV[1] .. '#' .. arrival
redis.call('ZADD', KEYS[1], string.format('%.0f', 4503599627370496 + arrival), member)
redis.call('HSET', KEYS[3], ARGV[1], member)
redis.call('HDEL', KEYS[7], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
for i = 1, 3 do
  redis.call('PEXPIREAT', KEYS[i], ARGV[2])
end
return redis.call('ZRANK', KEYS[1], member)
