-- What Redis knows of one shopper's order of one voucher, read atomically (the order cannot move from
-- pending to written between two reads).
-- KEYS[1] shopper -> latest order hash   KEYS[2] pending hash   KEYS[3] failed hash   KEYS[4] buyers set
--         (all hash-tagged {voucherId})
-- ARGV[1] shopper id
-- Returns {order id, 'PENDING'}: accepted, not yet in MySQL; {order id, 'FAILED'}: given up;
-- {order id, 'WRITTEN'}: neither, so acknowledged, that is in MySQL; {'', 'BUYER'}: a buyer whose
-- order the index does not know (look in MySQL); {}: Redis knows no order of this shopper.
local order = redis.call('HGET', KEYS[1], ARGV[1])
if order then
  if redis.call('HEXISTS', KEYS[2], order) == 1 then
    return {order, 'PENDING'}
  end
  if redis.call('HEXISTS', KEYS[3], order) == 1 then
    return {order, 'FAILED'}
  end
  return {order, 'WRITTEN'}
end
if redis.call('SISMEMBER', KEYS[4], ARGV[1]) == 1 then
  return {'', 'BUYER'}
end
return {}
