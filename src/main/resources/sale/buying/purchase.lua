-- The purchase decision of both order paths, atomically, for one or more orders of one voucher (the
-- async path's concurrent purchases share one call, see EnqueueCoalescer; the sync path sends one).
-- One order of checks and one set of answers, so that the same situation gets the same answer in
-- either mode; only what is kept of an accepted order differs (ARGV[1]).
-- Orders are decided in ARGV order, exactly as if each had been a call of its own, one after the other.
-- KEYS[1] stock counter   KEYS[2] buyer set   KEYS[3] shopper -> latest order   KEYS[4] reset fence
-- KEYS[5] orders in flight: the pending hash (queue) or the sync units in flight (hold)
-- KEYS[6] orders stream (written only by queue)   KEYS[7] the sale's generation (absent: 0)
-- KEYS[7 + i] with tickets: the ticket key of the i-th order's shopper (all hash-tagged {voucherId}, for Redis Cluster)
-- ARGV[1] 'queue' (async): the shopper becomes a buyer now and the order is queued for MySQL;
--         'hold' (sync): the unit is held under the order id until the request commits
--         (sync-unit-settle.lua makes the shopper a buyer) or gives it back (stock-return.lua)
-- ARGV[2] 'tickets': an order takes a unit only with its shopper's ticket, which it spends (sale/ticket/ticket-issue.lua);
--         'room': the same, the ticket being a waiting room's admission (sale/room/room-place.lua), whose shopper
--         leaves the room's open admissions (KEYS[8 + orders]) as it is spent, and the order it bought is written
--         to the room's spent admissions (KEYS[9 + orders]); 'open': no ticket asked
-- ARGV[3..] per order: shopper id, order id, at (epoch millis, the caller's clock: a script's time would differ
--         on a replica that replays it), and with tickets the ticket the request carried ('' for none)
-- Returns one answer per order, in ARGV order: 0 accepted, 1 sold out, 2 already bought (order unknown),
-- 3 stock not cached, 4 a stock reset is under way, 5 no valid ticket (none, spent, expired, another
-- shopper's or another voucher's), or, when the shopper already bought, the id of that
-- order as a string (a Lua number would round a 64-bit id); then one more element: the sale's generation the
-- orders were decided in (stock-reset.lua moves it on when it starts the sale afresh), which the async path
-- journals with what it accepted, so that a failover's replay leaves out the orders of an earlier sale.
local queue = ARGV[1] == 'queue'
local room = ARGV[2] == 'room'
local tickets = ARGV[2] == 'tickets' or room
local stride = tickets and 4 or 3
local orders = (#ARGV - 2) / stride
local answers = {}
-- A reset fences the voucher (stock-fence.lua) before it reads MySQL and lifts the fence when it has
-- written the new counter (stock-reset.lua): no order may take a unit in between, or the counter write
-- would erase it.
local fenced = redis.call('EXISTS', KEYS[4]) == 1
local stock = redis.call('GET', KEYS[1])
stock = stock and tonumber(stock)
-- What this call accepted so far: its writes go to Redis once, at the end, for all its orders (one DECRBY,
-- SADD and HSET each instead of one per order: on the order line these were half of the script's commands).
-- Later orders of the same call read these tables before Redis, so each is decided as if the earlier
-- ones had been written already.
local taken = 0
local inFlight, latest, buyers = {}, {}, {}
local inFlightArgs, latestArgs, buyerArgs = {}, {}, {}
for i = 1, orders do
  local base = 2 + stride * (i - 1)
  local shopper, order, at = ARGV[base + 1], ARGV[base + 2], ARGV[base + 3]
  local latestOrder = latest[shopper] or redis.call('HGET', KEYS[3], shopper)
  if inFlight[order] or latestOrder == order or redis.call('HEXISTS', KEYS[5], order) == 1 then
    -- This very order, decided before: Redisson sent the script again after the connection died under
    -- the first run, which had accepted it (the answer the shopper never got), before any fence that
    -- stands now: a reset counts the orders in flight and refuses while any is pending.
    answers[i] = 0
  elseif fenced then
    answers[i] = 4
  elseif not stock then
    answers[i] = 3
  elseif stock <= 0 then
    -- Sold out before already bought, as both paths answer from memory once a voucher is sold out.
    -- A buyer takes nothing either way; a retry with an Idempotency-Key still gets its order back (the
    -- service looks it up).
    answers[i] = 1
  elseif buyers[shopper] or redis.call('SISMEMBER', KEYS[2], shopper) == 1 then
    answers[i] = latestOrder or 2
  elseif tickets and (redis.call('GET', KEYS[7 + i]) ~= ARGV[base + 4]
      or (room and not redis.call('ZSCORE', KEYS[8 + orders], shopper))) then
    -- Checked last: a sold-out or already-bought answer needs no ticket, so a shopper whose answer was lost
    -- gets their order back with the spent one. A ticket is spent only by taking a unit. A room's admission is
    -- good only while its shopper is among the open admissions: a fresh sale empties them (RoomStore), so an
    -- admission of the sale before buys nothing in this one, whatever its ticket's lifetime.
    answers[i] = 5
  else
    if tickets then
      redis.call('DEL', KEYS[7 + i])
      if room then
        -- The room tells a spent admission by this, and gives it back if the order does not stand (room-place.lua).
        -- It lives as long as the room's keys, whose expiry the open admissions carry.
        local ttl = redis.call('PTTL', KEYS[8 + orders])
        redis.call('HSET', KEYS[9 + orders], shopper, order)
        if ttl > 0 then
          redis.call('PEXPIRE', KEYS[9 + orders], ttl)
        end
        redis.call('ZREM', KEYS[8 + orders], shopper)
      end
    end
    stock = stock - 1
    taken = taken + 1
    inFlight[order] = true
    if queue then
      buyers[shopper] = true
      latest[shopper] = order
      buyerArgs[#buyerArgs + 1] = shopper
      inFlightArgs[#inFlightArgs + 1] = order
      inFlightArgs[#inFlightArgs + 1] = shopper
      latestArgs[#latestArgs + 1] = shopper
      latestArgs[#latestArgs + 1] = order
      redis.call('XADD', KEYS[6], '*', 'order', order, 'shopper', shopper, 'at', at)
    else
      inFlightArgs[#inFlightArgs + 1] = order
      inFlightArgs[#inFlightArgs + 1] = at .. ':' .. shopper
    end
    answers[i] = 0
  end
end
if taken > 0 then
  redis.call('DECRBY', KEYS[1], taken)
  -- unpack() puts every argument on Lua's C stack, which holds about 8,000; a call carries far fewer
  -- (seckill.enqueue.max-batch), but a larger one must not fail.
  local function each(command, key, args)
    for from = 1, #args, 4000 do
      redis.call(command, key, unpack(args, from, math.min(from + 3999, #args)))
    end
  end
  each('HSET', KEYS[5], inFlightArgs)
  if queue then
    each('SADD', KEYS[2], buyerArgs)
    each('HSET', KEYS[3], latestArgs)
  end
end
answers[orders + 1] = tonumber(redis.call('GET', KEYS[7]) or '0')
return answers
