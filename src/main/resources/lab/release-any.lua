-- The articles' plain DEL of a lock (001 方案1-3, 004), which deletes whatever lock is there. It runs as one
-- script only so that the lab can say what it deleted: 1 the caller's own lock, 2 ANOTHER holder's lock (the
-- mistake the articles warn about), 0 nothing (the lock had expired).
-- KEYS[1] the lock; ARGV[1] the caller's value
local held = redis.call('get', KEYS[1])
redis.call('del', KEYS[1])
if held == ARGV[1] then
    return 1
elseif held then
    return 2
end
return 0
