-- A waiting room's numbers for the admin's dashboard, read together.
-- KEYS[1] places   KEYS[2] places let in   KEYS[3] open admissions (shopper -> when it runs out)   KEYS[4] the draw's marker
-- Open admissions are counted by Redis's clock, the one sale/room/room-place.lua times them with.
-- Returns {in the room, let in (capped at the room's size), open admissions, drawn 1/0}.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local size = redis.call('ZCARD', KEYS[1])
local admitted = math.min(tonumber(redis.call('GET', KEYS[2]) or '0'), size)
return {size, admitted, redis.call('ZCOUNT', KEYS[3], '(' .. now, '+inf'), redis.call('EXISTS', KEYS[4])}
