/**
 * Time-ordered 64-bit order and shopper ids ({@link dev.seckill.id.IdGenerator}), issued without any
 * coordination on the hot path. Owns the MySQL table {@code id_worker_lease}
 * ({@code db/migration/V2__id_worker_lease.sql}): each instance leases one of the 1024 worker numbers
 * there, renews it every {@code seckill.ids.renew-every}, releases it on shutdown, and never issues an
 * id outside the millisecond range its lease row allows. Uses no Redis key: a Redis that lost its data
 * cannot make two instances share a worker number.
 */
@Owns(tables = "id_worker_lease")
package dev.seckill.id;

import dev.seckill.Owns;
