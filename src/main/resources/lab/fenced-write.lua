-- The stock, written under a fencing token: refused (0) when its token is older than the newest one seen.
-- KEYS[1] the stock, KEYS[2] the newest token seen; ARGV[1] the holder's token, ARGV[2] the new stock.
local token = tonumber(ARGV[1])
if token < tonumber(redis.call('get', KEYS[2]) or '0') then
    return 0
end
redis.call('set', KEYS[2], token)
redis.call('set', KEYS[1], ARGV[2])
return 1
