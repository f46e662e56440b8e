package dev.seckill.voucher;

import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The door to a voucher's MySQL stock for the other modules: the order writer takes its units here (inside its own
 * transaction), the audit and the reconcile read the levels here (inside their own snapshots), the sale's epoch and
 * failover watchers the newest voucher's id when Redis lost its data or failed over. Nothing
 * else outside this module reads or writes {@code seckill_voucher}.
 */
@Component
public class VoucherStock {

    private final SeckillVoucherRepository sales;
    private final JdbcTemplate jdbc;

    VoucherStock(SeckillVoucherRepository sales, JdbcTemplate jdbc) {
        this.sales = sales;
        this.jdbc = jdbc;
    }

    /**
     * MySQL's stock now and at the start of the sale (after the last reset), and the sale's generation: one more after
     * every reset that deleted the orders (a fresh sale).
     */
    public record Levels(int stock, int initialStock, long saleGeneration) {
    }

    /**
     * Takes {@code units} units, all or none: the database's own guard against overselling.
     *
     * @return whether they were taken (false: fewer are left, whatever any cache said)
     */
    public boolean takeUnits(long voucherId, int units) {
        return sales.takeUnits(voucherId, units) > 0;
    }

    /**
     * Puts the units of orders that ended unpaid back on sale, inside the caller's transaction (the one that ended
     * them). Guarded like the take: the stock never rises above what was put on sale, so a unit returned twice
     * cannot be sold twice; the caller's transaction rolls back instead.
     *
     * @throws IllegalStateException the return would leave more units than were ever put on sale
     */
    public void returnUnits(long voucherId, int units) {
        if (sales.returnUnits(voucherId, units) != 1) {
            throw new IllegalStateException("Returning " + units + " units of voucher " + voucherId
                    + " would leave more units than were put on sale: refused");
        }
    }

    /** Empty when no such voucher exists. Joins the caller's transaction, so a snapshot reads it consistently. */
    public Optional<Levels> levels(long voucherId) {
        List<Levels> rows = jdbc.query("SELECT stock, initial_stock, sale_generation FROM seckill_voucher "
                + "WHERE voucher_id = ?", (rs, n) -> new Levels(rs.getInt(1), rs.getInt(2), rs.getLong(3)), voucherId);
        return rows.stream().findFirst();
    }

    /**
     * The generation of the voucher's sale MySQL has committed (0 for a voucher that does not exist): a failover's
     * replay leaves out the orders accepted in an earlier one, which a fresh sale deleted.
     */
    public long saleGeneration(long voucherId) {
        return jdbc.queryForList("SELECT sale_generation FROM seckill_voucher WHERE voucher_id = ?", Long.class, voucherId)
                .stream().findFirst().orElse(0L);
    }

    /**
     * Starts the voucher's sale afresh, inside the reset's transaction: the generation moves on, and every order
     * accepted before is no longer the sale's. Returns the new generation.
     */
    long startFreshSale(long voucherId) {
        jdbc.update("UPDATE seckill_voucher SET sale_generation = sale_generation + 1 WHERE voucher_id = ?", voucherId);
        return saleGeneration(voucherId);
    }

    /** The newest voucher's id, 0 when there is none. Ids only grow: "existed at that moment" is an id comparison. */
    public long newestVoucherId() {
        return jdbc.queryForObject("SELECT COALESCE(MAX(id), 0) FROM voucher", Long.class);
    }
}
