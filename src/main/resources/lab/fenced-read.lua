-- The stock, read under a fencing token: refused (-1) when a newer token has already been seen, else the token
-- becomes the newest seen. The read is fenced as well as the write: fencing only the write would let a stale holder
-- that writes first (before the newer holder writes, after it read) lose the newer holder's update.
-- KEYS[1] the stock, KEYS[2] the newest token seen; ARGV[1] the holder's token.
local token = tonumber(ARGV[1])
if token < tonumber(redis.call('get', KEYS[2]) or '0') then
    return -1
end
redis.call('set', KEYS[2], token)
return tonumber(redis.call('get', KEYS[1]))
