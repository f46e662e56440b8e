/**
 * A voucher's sale: an order's journey from the click to MySQL, one package per stage, so that one purchase is read in
 * one place until it reaches Redis; what keeps that journey whole when Redis fails over or loses its data; and the
 * audit that counts what it left. The port is {@link dev.seckill.sale.Sale}, with two adapters, only the configured
 * one existing ({@code seckill.mode}):
 * <ul>
 *   <li>{@code sale.buying}: {@code POST /seckill/{id}} to the purchase script. The controller, both adapters
 *       ({@code AsyncSale}, the default: memory checks, then one script call that decides and queues, through
 *       {@code OrderEnqueue} and {@code EnqueueCoalescer}; {@code SyncSale}: the shopper's and the voucher's locks
 *       around the order's transaction), the one purchase decision of both ({@code PurchaseDecision},
 *       {@code sale/buying/purchase.lua}) and the sold-out flags every instance keeps in memory;</li>
 *   <li>{@code sale.stream}: the async path's order streams to MySQL. Consumers read them and hand batches to the
 *       order module's writer under a failure policy ({@code OrderStreamConsumer}, {@code OrderFailurePolicy},
 *       {@code FailureClassifier}); {@code OrderStream} and the acknowledge and give-up scripts under
 *       {@code sale/stream/};</li>
 *   <li>{@code sale.failover}: a Redis failover. The watcher that notices it, the journal of accepted orders and its
 *       replay into the new master ({@code failover-replay.lua}), the optional wait for replicas; owns the tables
 *       {@code redis_topology}, {@code redis_failover}, {@code redis_failover_replay} and {@code redis_watcher};</li>
 *   <li>{@code sale.durability}: a Redis that lost its data (a flush, a restart without persistence), which a
 *       failover's promoted replica would not show. A marker in Redis ({@code seckill:epoch}, on a Redis Cluster one
 *       copy per window of slots) that MySQL also holds ({@code redis_epoch}); a marker gone is a loss, logged,
 *       counted, recorded once ({@code redis_data_loss}) and reported by the audit of every sale that existed then
 *       ({@code RedisDataLosses});</li>
 *   <li>{@code sale.sync}: the sweeper that settles or returns units left by sync requests that died half-way;</li>
 *   <li>{@code sale.reconcile}: the rebuild of a voucher's Redis state from MySQL and what is on its way, used by
 *       both paths and the admin's reconcile ({@code sale.web});</li>
 *   <li>{@code sale.ticket}: a fair start. {@code GET /seckill/{id}/challenge} answers an ALTCHA challenge
 *       ({@code Challenges}) bound to the shopper and voucher; {@code POST /seckill/{id}/ticket} with its solution,
 *       once the sale is open, a short-lived purchase ticket ({@code PurchaseTickets}, {@code TicketStore},
 *       {@code sale/ticket/ticket-issue.lua}), which the purchase script checks and spends when it takes a unit.
 *       Whether tickets are asked: {@code seckill.tickets.required} ({@code TicketSettings});</li>
 *   <li>{@code sale.room}: a waiting room, for a voucher created with one (its arrival window). Everyone who joins
 *       ({@code POST /seckill/{id}/room}) from the pre-queue before the opening until the window closes gets a place
 *       by a lottery anyone can check, its numbers computed at the close from the seed and the entrants
 *       ({@code RoomLottery}; the seed's hash at {@code GET /vouchers/{id}/room}, the seed, the entrants' hash and
 *       the order at {@code /vouchers/{id}/room/draw} once drawn); later arrivals queue behind. The page waits on the
 *       room's public state ({@code GET /vouchers/{id}/room/now}, cached by Nginx), which lets the next batch in when
 *       one is due, and asks its place ({@code GET /seckill/{id}/room/place}) after the draw and when its turn comes:
 *       a shopper whose turn has come gets an admission, a ticket spent by the purchase script like any other
 *       ({@code WaitingRooms}, {@code KnownPlaces},
 *       {@code RoomStore}, {@code sale/room/*.lua}, {@code seckill.room});</li>
 *   <li>{@code sale.audit}: the sale's account of itself. Each voucher's audit ({@code AuditService},
 *       {@code GET /admin/vouchers/{id}/audit}): MySQL's stock and orders, Redis's counter, buyers and pending orders,
 *       and the failovers and data losses that touched the sale, counted against each other into one verdict, MySQL's
 *       numbers asked of the order and voucher modules inside one snapshot. And the live numbers of the admin
 *       dashboard: every instance writes a snapshot of its cumulative sale counters to Redis about once a second
 *       ({@code LivePublisher}, {@code seckill:live:}, one hash slot outside the voucher keys' prefix) in a hash that
 *       expires when the instance stops writing it; {@code GET /admin/vouchers/{id}/live} puts them next to the
 *       sale's stock, orders and backlog;</li>
 *   <li>{@code sale.internal}: the check that refuses to start one mode while the other left work in Redis.</li>
 * </ul>
 * The API other modules use: {@link dev.seckill.sale.PlacedOrder}, the sale's meters
 * ({@link dev.seckill.sale.SaleMeters}: every counter and timer of the order path registered once; tags small and
 * bounded, never a shopper) and the pending backlog's gauges ({@link dev.seckill.sale.PendingBacklog}). The key names
 * and the state several modules read (stock counter, order states, returns, locks) are salestate's.
 */
@Owns(tables = {"redis_topology", "redis_failover", "redis_failover_replay", "redis_watcher", "redis_epoch",
        "redis_data_loss"},
        redisKeys = {"seckill:sold-out:", "seckill:epoch", "seckill:live:"},
        scripts = {"sale/buying/purchase.lua", "sale/stream/seckill-ack.lua", "sale/stream/seckill-fail.lua",
                "sale/stream/seckill-fail-duplicate.lua", "sale/failover/failover-replay.lua",
                "sale/ticket/ticket-issue.lua", "sale/room/room-join.lua", "sale/room/room-place.lua",
                "sale/room/room-draw.lua", "sale/room/room-number.lua", "sale/room/room-numbers.lua",
                "sale/room/room-again.lua", "sale/room/room-restart.lua"})
package dev.seckill.sale;

import dev.seckill.Owns;
