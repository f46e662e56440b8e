package dev.seckill.order;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.seckill.order.NewOrderWriter.NewOrder;
import dev.seckill.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The door the other modules ask {@code voucher_order} through: which orders MySQL holds is asked per voucher, so an
 * order of another voucher is never taken for one of this one's (the sweeper would settle a unit that was never
 * sold), and lists longer than one query's chunk come back whole.
 */
class OrdersByVoucherIT extends IntegrationTest {

    @Autowired
    NewOrderWriter writer;

    @Autowired
    OrdersByVoucher records;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void whichOrdersAreInMySqlIsAnsweredForTheVoucherAskedAboutOnly() {
        long mine = api.createVoucher(5);
        long other = api.createVoucher(5);
        long base = System.nanoTime() & 0xFFFF_FFFFL;
        writer.persist(mine, List.of(new NewOrder(base + 1, base + 1, 0), new NewOrder(base + 2, base + 2, 0)));
        writer.persist(other, List.of(new NewOrder(base + 3, base + 3, 0)));

        assertThat(records.inMySql(mine, List.of(base + 1, base + 2, base + 3, base + 4)))
                .containsExactlyInAnyOrder(base + 1, base + 2);
        assertThat(records.inMySql(other, List.of(base + 1, base + 3))).containsExactly(base + 3);
        assertThat(records.inMySql(mine, List.of())).isEmpty();
        assertThat(records.buyersOf(mine)).isEqualTo(new OrdersByVoucher.Buyers(2, 2, 0));
        assertThat(records.orderOfEachBuyer(other)).containsEntry(base + 3, base + 3).hasSize(1);
    }

    /** The sale list asks once for all its sold-out vouchers: an ended order holds no unit that may come back. */
    @Test
    void ordersAwaitingPaymentAreCountedForEachVoucherAskedAbout() {
        long sold = api.createVoucher(5);
        long other = api.createVoucher(5);
        long none = api.createVoucher(5);
        long notAsked = api.createVoucher(5);
        long base = System.nanoTime() & 0xFFFF_FFFFL;
        // placed now: an order placed at 0 would be past its pay_by, and the expiry scan would end it under the test
        long now = System.currentTimeMillis();
        writer.persist(sold, List.of(new NewOrder(base + 1, base + 1, now), new NewOrder(base + 2, base + 2, now),
                new NewOrder(base + 3, base + 3, now)));
        writer.persist(other, List.of(new NewOrder(base + 4, base + 4, now)));
        writer.persist(notAsked, List.of(new NewOrder(base + 5, base + 5, now)));
        jdbc.update("UPDATE voucher_order SET status = 'PAID', ended_at = UTC_TIMESTAMP(3) WHERE id = ?", base + 3);

        assertThat(records.awaitingPayment(List.of(sold, other, none)))
                .containsOnly(entry(sold, 2L), entry(other, 1L));
        assertThat(records.awaitingPayment(List.of())).isEmpty();
    }

    @Test
    void aListLongerThanOneChunkIsAnsweredWhole() {
        long voucher = api.createVoucher(OrdersByVoucher.IDS_PER_QUERY + 10);
        long base = (System.nanoTime() & 0xFFFF_FFFFL) << 12;
        List<NewOrder> orders = new ArrayList<>();
        for (int i = 0; i < OrdersByVoucher.IDS_PER_QUERY + 10; i++) {
            orders.add(new NewOrder(base + i, base + i, 0));
        }
        writer.persist(voucher, orders);

        Set<Long> found = records.inMySql(voucher, orders.stream().map(NewOrder::orderId).toList());
        assertThat(found).hasSize(OrdersByVoucher.IDS_PER_QUERY + 10);
    }
}
