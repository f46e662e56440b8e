/**
 * Sync mode leaks no units. The sync path takes a unit from the voucher's Redis counter before its order's
 * transaction and records it under the order's id ({@code seckill:{id}:sync-units}, written by the take
 * itself); the request drops the record when it commits or gives the unit back. A request that dies in
 * between (a killed instance, a lost connection at the wrong moment) leaves the record behind, and the
 * {@link dev.seckill.syncunit.SyncUnitSweeper} on every instance finds it once it is older than
 * {@code seckill.sync-units.unit-timeout}: the order is in MySQL, so the unit was sold (the shopper becomes
 * a buyer), or it is not, so the unit goes back to stock. Returned units are remembered for
 * {@code keep-returned}, so that a request outliving the timeout neither gives its unit back twice nor keeps
 * a unit it sold after all without taking it again. Clocks decide only when a record is looked at, never
 * what happens to it: that is MySQL's answer, applied by scripts that do nothing when the record is gone.
 * <p>
 * Owns no table; reads {@code voucher_order}. The Redis keys and scripts are the stock module's
 * ({@link dev.seckill.salestate.SyncUnits}).
 */
package dev.seckill.syncunit;
