package dev.seckill.audit;

import java.util.List;
import java.util.Map;

import dev.seckill.durability.RedisDataLosses;
import dev.seckill.orderstream.OrderStream;
import dev.seckill.stock.StockCache;
import dev.seckill.stock.SyncUnits;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads a voucher's numbers straight from MySQL and Redis, with SQL anyone can re-run by hand. Public for
 * the live numbers ({@code dev.seckill.live}), which show the same stock and order counts every second.
 */
@Service
public class AuditService {

    private final JdbcTemplate jdbc;
    private final StockCache stock;
    private final OrderStream stream;
    private final RedisDataLosses losses;
    private final SyncUnits syncUnits;

    AuditService(JdbcTemplate jdbc, StockCache stock, OrderStream stream, RedisDataLosses losses, SyncUnits syncUnits) {
        this.jdbc = jdbc;
        this.stock = stock;
        this.stream = stream;
        this.losses = losses;
        this.syncUnits = syncUnits;
    }

    /**
     * The audit's stock and order counts without its heavier checks (distinct and duplicate buyers, Redis
     * data losses): cheap enough to be asked every second.
     *
     * @param redisStock null when Redis holds no counter for the voucher
     * @throws SeckillProblem voucher-not-found
     */
    public record SaleNumbers(int dbStock, long orders, Long redisStock, long pendingOrders, long deadLetters) {
    }

    @Transactional(readOnly = true)
    public SaleNumbers numbers(long voucherId) {
        Map<String, Object> sale = sale(voucherId);
        long orders = jdbc.queryForObject("SELECT COUNT(*) FROM voucher_order WHERE voucher_id = ?", Long.class,
                voucherId);
        OrderStream.StreamCounts counts = stream.counts(voucherId);
        return new SaleNumbers(number(sale, "stock").intValue(), orders, redisStock(voucherId), counts.pending(),
                counts.deadLetters());
    }

    private Map<String, Object> sale(long voucherId) {
        List<Map<String, Object>> sale = jdbc.queryForList(
                "SELECT stock, initial_stock FROM seckill_voucher WHERE voucher_id = ?", voucherId);
        if (sale.isEmpty()) {
            throw new SeckillProblem(ProblemCode.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId);
        }
        return sale.get(0);
    }

    private Long redisStock(long voucherId) {
        return stock.read(voucherId).stream().boxed().findFirst().orElse(null);
    }

    @Transactional(readOnly = true)
    VoucherAudit audit(long voucherId) {
        Map<String, Object> sale = sale(voucherId);
        Map<String, Object> orders = jdbc.queryForMap("SELECT COUNT(*) AS orders, COUNT(DISTINCT user_id) AS buyers "
                + "FROM voucher_order WHERE voucher_id = ?", voucherId);
        long duplicateBuyers = jdbc.queryForObject("SELECT COUNT(*) FROM (SELECT user_id FROM voucher_order "
                + "WHERE voucher_id = ? GROUP BY user_id HAVING COUNT(*) > 1) d", Long.class, voucherId);
        Long redisStock = redisStock(voucherId);
        OrderStream.StreamCounts counts = stream.counts(voucherId);
        long syncUnitsInFlight = syncUnits.inFlight(voucherId);
        return VoucherAudit.of(voucherId, number(sale, "initial_stock").intValue(), number(sale, "stock").intValue(),
                redisStock, number(orders, "orders").longValue(), number(orders, "buyers").longValue(), duplicateBuyers,
                counts.pending(), syncUnitsInFlight, counts.failed(), counts.deadLetters(), losses.latestAffecting(voucherId).orElse(null));
    }

    private static Number number(Map<String, Object> row, String column) {
        return (Number) row.get(column);
    }
}
