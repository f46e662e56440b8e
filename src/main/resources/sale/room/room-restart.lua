-- A fresh sale lets the room's places in again from the front: the places, the draw and the late arrivals stay, so
-- the published order still holds and no page's place moves; shoppers queued again are back at the place they were
-- drawn or arrived at (the places they were queued again at stay, and let nobody in: room-place.lua), and every
-- admission, spent or not, the pace and an admin's controls go.
-- KEYS: the keys deleted (the shoppers queued again, places let in, the next batch's time, when each was let in, open
-- and spent admissions, the controls; all hash-tagged {voucherId})
return redis.call('DEL', unpack(KEYS))
