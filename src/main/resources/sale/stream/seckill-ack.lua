-- Marks orders as written to MySQL: acknowledges and deletes their stream messages (the stream only
-- ever holds orders not yet in MySQL) and forgets them as pending.
-- Called only after the transaction that inserted them committed.
-- KEYS[1] orders stream   KEYS[2] pending hash   KEYS[3] attempts hash   (hash-tagged {voucherId})
-- ARGV[1] consumer group, then pairs: message id, order id
-- Four commands for the whole batch, not four per order: XACK, XDEL and HDEL all take many ids, and
-- these commands were a third of a real order's Redis commands (docs/benchmarks.md).
local messages, orders = {}, {}
for i = 2, #ARGV, 2 do
  messages[#messages + 1] = ARGV[i]
  orders[#orders + 1] = ARGV[i + 1]
end
-- unpack() puts every id on Lua's C stack, which holds about 8,000: large batches go in slices.
local slice = 1000
for from = 1, #messages, slice do
  local to = math.min(from + slice - 1, #messages)
  redis.call('XACK', KEYS[1], ARGV[1], unpack(messages, from, to))
  redis.call('XDEL', KEYS[1], unpack(messages, from, to))
  redis.call('HDEL', KEYS[2], unpack(orders, from, to))
  redis.call('HDEL', KEYS[3], unpack(messages, from, to))
end
return #messages
