-- A fresh sale lets the room's places in again from the front: the places, the draw and the late arrivals stay, so
-- the published order still holds; the places of shoppers queued again go (each is back at the place they were
-- drawn or arrived at), and so does every admission, spent or not, with the pace.
-- KEYS[1] places   KEYS[2] shopper -> their place's member once queued again   KEYS[3..] the keys deleted
local members = redis.call('HVALS', KEYS[2])
-- unpack() puts every argument on Lua's C stack, which holds about 8,000
for from = 1, #members, 4000 do
  redis.call('ZREM', KEYS[1], unpack(members, from, math.min(from + 3999, #members)))
end
redis.call('DEL', unpack(KEYS, 2))
return #members
