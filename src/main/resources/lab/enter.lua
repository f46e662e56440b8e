-- A holder enters the critical section. The section counts its own occupants: a second one inside is an overlap,
-- whatever the lock claimed.
-- KEYS[1] the run's holders counter, KEYS[2] its stats hash. Returns {holders now inside, this holder's number}.
local inside = redis.call('incr', KEYS[1])
local number = redis.call('hincrby', KEYS[2], 'acquisitions', 1)
if inside > 1 then
    redis.call('hincrby', KEYS[2], 'overlaps', 1)
end
if inside > tonumber(redis.call('hget', KEYS[2], 'maxHolders') or '0') then
    redis.call('hset', KEYS[2], 'maxHolders', inside)
end
return {inside, number}
