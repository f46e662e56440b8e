package dev.seckill.sale.audit;

import java.time.Instant;
import java.util.Map;

/**
 * One instance's counters for one voucher, cumulative since that instance started, as of {@code at} (when
 * it wrote them: rates are differences over the difference of two {@code at}s).
 *
 * @param refused  refusals by problem code
 * @param replayed retries with an Idempotency-Key answered with the shopper's existing order
 * @param written  orders this instance's consumers committed to MySQL
 * @param givenUp  orders its consumers gave up on
 */
record InstanceLive(String instance, Instant at, long accepted, Map<String, Long> refused, long replayed, long written,
        long givenUp) {
}
