-- The articles' release of one's own lock only (001 方案4, 003), verbatim: compare and delete in one atomic step.
-- KEYS[1] the lock; ARGV[1] the caller's value. 1 deleted, 0 not the caller's (any more).
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
else
    return 0
end
