-- A shopper's place in a voucher's waiting room, and their admission when their turn has come: what the room's page
-- polls. It also lets the next batch in when one is due, so no instance has to run a timer: a room with nobody
-- polling has nobody to let in. A poll reads a few numbers and one rank, whatever the room's size; the poll that
-- lets a batch in also writes the batch's shoppers.
-- KEYS[1] places   KEYS[2] the arrival window's closing marker   KEYS[3] places let in
-- KEYS[4] when the next batch is due
-- KEYS[5] shopper -> when let in   KEYS[6] the shopper's ticket   KEYS[7] the stock counter
-- KEYS[8] open admissions: shopper -> when their admission runs out (the purchase script takes a spent one out)
-- KEYS[9] the shopper's polls in this window (the per-shopper limit, kept here so that a poll is one call)
-- KEYS[10] the draw's marker: the entrants' lottery numbers are written (room-number.lua)
-- KEYS[11] shopper -> their place's member in KEYS[1] once queued again (room-again.lua; a member of their own id else)
-- KEYS[12] spent admissions: shopper -> the order it bought (purchase.lua)   KEYS[13] buyers
-- KEYS[14] sync units in flight: order -> ...   KEYS[15] sync units the sweeper returned (order may still commit)
-- KEYS[16] the room's controls, set by an admin (RoomStore.control): paused '1', rate (places a second), closed '1'
-- ARGV[1] the shopper, or '' for the room's public state (what every page waits on: it lets batches in as a shopper's
-- poll does, and answers {1 or 2 or 5, -1, admitted, size, stock, '', 0, held})   ARGV[2] '1' when the caller's
-- clock says the arrival window has closed   ARGV[3] batch size
-- ARGV[4] batch interval (ms)   ARGV[5] how long an admission lasts (ms)   ARGV[6] a new ticket, used if the
-- shopper's admission has none yet   ARGV[7] when the room's keys expire (epoch ms: some time after the sale ends;
-- every write sets it again, as SET clears it)   ARGV[8] polls a shopper may make in a window   ARGV[9] the window (ms)
-- ARGV[10] the presence window (ms): a shopper let in who does not look at their place within it gives the unit
-- back to the next place; one who does holds it for the admission's whole lifetime
-- Returns {state, rank, admitted, size, stock, ticket, ms left, held}: state 0 not in the room, 1 the draw is not done
-- (no place yet: the window is open, or its numbers are still to be written), 2 waiting, 3 let in (ticket: the
-- admission the purchase spends), 4 let in and the admission ran out unused, 5 nothing is left to sell (for now: units
-- that come back reopen the room), 6 let in and the admission spent by a purchase whose order stands (an admission
-- whose order did not stand, given up or rolled back, is given back whole: 3 again); stock -1 when the counter is not
-- in Redis; held: the units the open admissions hold now (each admitted shopper may buy one), so that a waiting place
-- is told what is free for those ahead of it;
-- state 7: the shopper polled more than their limit in this window (ms left: until the window ends), nothing read;
-- state 8: an admin closed the room: nobody more is let in (an admission given before stays good).
-- Every answer ends with the rate an admin set (0: the voucher's), the flags (1 paused, 2 closed by an admin; 4 the
-- shopper's place is one they were queued again at, which a fresh sale takes back; 8 with state 4: the admission's
-- order failed and its unit went to another place, so the caller queues the shopper again, room-again.lua) and, told to
-- a waiting place, how many admissions were spent on orders that stand or are on their way (the room's buyers so far,
-- from which a place far back is told its odds).
local control = redis.call('HMGET', KEYS[16], 'paused', 'rate', 'closed')
local paused, closed, rate = control[1] == '1', control[3] == '1', tonumber(control[2] or '0')
local requeuedAt = ARGV[1] ~= '' and redis.call('HGET', KEYS[11], ARGV[1])
local unitTaken = false
local function answer(state, rank, admitted, size, stock, ticket, left, held, spent)
  return {state, rank, admitted, size, stock, ticket, left, held, rate,
    (paused and 1 or 0) + (closed and 2 or 0) + (requeuedAt and 4 or 0) + (unitTaken and 8 or 0), spent or 0}
end
local public = ARGV[1] == ''
if not public then
  local polls = redis.call('INCR', KEYS[9])
  if polls == 1 then
    redis.call('PEXPIRE', KEYS[9], ARGV[9])
  elseif polls > tonumber(ARGV[8]) then
    return answer(7, -1, 0, 0, 0, '', redis.call('PTTL', KEYS[9]), 0)
  end
end
local rank = public or redis.call('ZRANK', KEYS[1], requeuedAt or ARGV[1])
local size = redis.call('ZCARD', KEYS[1])
local stock = tonumber(redis.call('GET', KEYS[7]) or '-1')
if not rank then
  return answer(0, -1, 0, size, stock, '', 0, 0)
end
if redis.call('EXISTS', KEYS[2]) == 0 then
  if ARGV[2] ~= '1' then
    return answer(1, -1, 0, size, stock, '', 0, 0)
  end
  redis.call('SET', KEYS[2], '1', 'PXAT', ARGV[7])
end
-- Closed, its numbers not written yet (the caller writes them, room-number.lua, and asks again): no place yet.
if redis.call('EXISTS', KEYS[10]) == 0 then
  return answer(1, -1, 0, size, stock, '', 0, 0)
end
-- The pace is kept by Redis's clock, read as the script runs: polls run one at a time, so each sees the time the one
-- before it wrote. A caller's clock is read before the request waits its turn; a poll that read it earlier and ran
-- later would find the due time further off than one interval, take it for a clock running ahead, and let in a
-- batch of its own: under hundreds of polls a second, batches many times the rate.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = tonumber(ARGV[4])
local batch = tonumber(ARGV[3])
if rate > 0 then
  batch = math.max(1, math.floor(rate * interval / 1000 + 0.5))
end
local lifetime = tonumber(ARGV[5])
local admitted = tonumber(redis.call('GET', KEYS[3]) or '0')
local due = tonumber(redis.call('GET', KEYS[4]) or '0')
-- A due time further off than one interval was set by a clock running ahead (a master before a failover): due now.
if stock > 0 and admitted < size and not paused and not closed and (now >= due or due > now + interval) then
  -- Never more open admissions than units left: an admission is a unit its shopper can count on, so how fast an
  -- admitted shopper clicks decides nothing. Admissions that ran out make room for the next places; so do units that
  -- come back (an order cancelled or unpaid). Paused while nothing is left to sell.
  redis.call('ZREMRANGEBYSCORE', KEYS[8], '-inf', now)
  local letIn = math.min(batch, stock - redis.call('ZCARD', KEYS[8]), size - admitted)
  if letIn > 0 then
    -- Held for the presence window only, until the shopper looks (below): one who walked away holds a unit that long.
    local presence = tonumber(ARGV[10])
    for _, member in ipairs(redis.call('ZRANGE', KEYS[1], admitted, admitted + letIn - 1)) do
      local shopper = string.match(member, '^%d+')
      -- A place its shopper left to queue again (or one a fresh sale took back) lets nobody in: the place stays, so
      -- that no place behind it moves.
      if (redis.call('HGET', KEYS[11], shopper) or shopper) == member then
        redis.call('ZADD', KEYS[8], now + presence, shopper)
        redis.call('HSET', KEYS[5], shopper, now)
      end
    end
    for _, key in ipairs({KEYS[8], KEYS[5], KEYS[12], KEYS[16]}) do
      redis.call('PEXPIREAT', key, ARGV[7])
    end
    admitted = admitted + letIn
    redis.call('SET', KEYS[3], admitted, 'PXAT', ARGV[7])
  end
  redis.call('SET', KEYS[4], now + interval, 'PXAT', ARGV[7])
end
-- Closed by an admin: final, to everyone not let in (the public state included).
if closed and (public or rank >= admitted) then
  return answer(8, public and -1 or rank, admitted, size, stock, '', 0, 0)
end
-- Nothing left to sell: the room says so to everyone, let in or not.
if stock == 0 then
  return answer(5, public and -1 or rank, admitted, size, stock, '', 0, 0)
end
if public then
  return answer(2, -1, admitted, size, stock, '', 0, redis.call('ZCOUNT', KEYS[8], now + 1, '+inf'),
    redis.call('HLEN', KEYS[12]))
end
if rank >= admitted then
  return answer(2, rank, admitted, size, stock, '', 0, redis.call('ZCOUNT', KEYS[8], now + 1, '+inf'),
    redis.call('HLEN', KEYS[12]))
end
local admittedAt = tonumber(redis.call('HGET', KEYS[5], ARGV[1]) or now)
local left = admittedAt + lifetime - now
-- Looked at since let in: held until the admission's lifetime ends, under the ticket issued then. A ticket of an
-- earlier admission (a fresh sale let this place in again) is not this one's.
local holds = tonumber(redis.call('ZSCORE', KEYS[8], ARGV[1]) or '0')
local ticket = redis.call('GET', KEYS[6])
if ticket and left > 0 and holds == admittedAt + lifetime then
  return answer(3, rank, admitted, size, stock, ticket, left, 0)
end
local order = redis.call('HGET', KEYS[12], ARGV[1])
if order then
  if redis.call('SISMEMBER', KEYS[13], ARGV[1]) == 1 or redis.call('HEXISTS', KEYS[14], order) == 1
      or redis.call('HEXISTS', KEYS[15], order) == 1 then
    return answer(6, rank, admitted, size, stock, '', 0, 0)
  end
  -- The order the admission bought did not stand (given up after its retries, or its transaction rolled back) and
  -- its unit went back on sale: the admission is given back whole, held for its lifetime from now, if that unit is
  -- still free (the async path gives it back as it gives the order up, seckill-fail.lua; this is the sync path's, and
  -- any that missed it). If the room let another place in on it meanwhile, it has run out, and the caller queues the
  -- shopper again behind everyone.
  redis.call('HDEL', KEYS[12], ARGV[1])
  if stock - redis.call('ZCOUNT', KEYS[8], now + 1, '+inf') > 0 then
    redis.call('HSET', KEYS[5], ARGV[1], now)
    redis.call('ZADD', KEYS[8], now + lifetime, ARGV[1])
    redis.call('SET', KEYS[6], ARGV[6], 'PX', lifetime)
    for _, key in ipairs({KEYS[8], KEYS[5]}) do
      redis.call('PEXPIREAT', key, ARGV[7])
    end
    return answer(3, rank, admitted, size, stock, ARGV[6], lifetime, 0)
  end
  unitTaken = true
  return answer(4, rank, admitted, size, stock, '', 0, 0)
end
-- A buyer whose admission's record is gone (bought before it was kept, or it expired): used all the same.
if redis.call('SISMEMBER', KEYS[13], ARGV[1]) == 1 then
  return answer(6, rank, admitted, size, stock, '', 0, 0)
end
-- Let in and not looked at within the presence window, or looked at and not spent within the lifetime: run out.
if left <= 0 or holds <= now then
  redis.call('ZREM', KEYS[8], ARGV[1])
  return answer(4, rank, admitted, size, stock, '', 0, 0)
end
-- The first look since they were let in: the admission is theirs for its lifetime, its ticket issued now.
redis.call('ZADD', KEYS[8], 'XX', admittedAt + lifetime, ARGV[1])
redis.call('SET', KEYS[6], ARGV[6], 'PX', left)
return answer(3, rank, admitted, size, stock, ARGV[6], left, 0)
