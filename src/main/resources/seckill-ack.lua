-- Marks orders as written to MySQL: acknowledges and deletes their stream messages (the stream only
-- ever holds orders not yet in MySQL) and forgets them as pending.
-- Called only after the transaction that inserted them committed.
-- KEYS[1] orders stream   KEYS[2] pending hash   KEYS[3] attempts hash   (hash-tagged {voucherId})
-- ARGV[1] consumer group, then pairs: message id, order id
for i = 2, #ARGV, 2 do
  redis.call('XACK', KEYS[1], ARGV[1], ARGV[i])
  redis.call('XDEL', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i + 1])
  redis.call('HDEL', KEYS[3], ARGV[i])
end
return (#ARGV - 1) / 2
