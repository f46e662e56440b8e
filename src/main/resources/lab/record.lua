-- One deduction attempt's outcome, added to its run's stats in one round trip.
-- KEYS[1] the stats hash; ARGV[1] the outcome's field, ARGV[2] the wait for the lock (microseconds),
-- ARGV[3] / ARGV[4] when the attempt started / ended (epoch milliseconds), ARGV[5] the release's field or ''.
redis.call('hincrby', KEYS[1], ARGV[1], 1)
redis.call('hincrby', KEYS[1], 'done', 1)
redis.call('hincrby', KEYS[1], 'waitMicros', ARGV[2])
if tonumber(ARGV[2]) > tonumber(redis.call('hget', KEYS[1], 'maxWaitMicros') or '0') then
    redis.call('hset', KEYS[1], 'maxWaitMicros', ARGV[2])
end
local first = redis.call('hget', KEYS[1], 'firstStartMs')
if not first or tonumber(ARGV[3]) < tonumber(first) then
    redis.call('hset', KEYS[1], 'firstStartMs', ARGV[3])
end
if tonumber(ARGV[4]) > tonumber(redis.call('hget', KEYS[1], 'lastEndMs') or '0') then
    redis.call('hset', KEYS[1], 'lastEndMs', ARGV[4])
end
if ARGV[5] ~= '' then
    redis.call('hincrby', KEYS[1], ARGV[5], 1)
end
return 1
