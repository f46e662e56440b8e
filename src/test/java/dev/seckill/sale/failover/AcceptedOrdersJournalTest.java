package dev.seckill.sale.failover;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AcceptedOrdersJournalTest {

    private final AtomicLong nanos = new AtomicLong(1_000);

    @Test
    void keepsWhatWasAcceptedWithinTheWindowByVoucherOldestFirst() {
        AcceptedOrdersJournal journal = new AcceptedOrdersJournal(Duration.ofSeconds(60), 1_000, nanos::get);
        journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(1, 101, 5),
                new AcceptedOrdersJournal.Accepted(2, 102, 6)), true);
        nanos.addAndGet(Duration.ofSeconds(30).toNanos());
        journal.accepted(8, 0, List.of(new AcceptedOrdersJournal.Accepted(3, 103, 7)), true);
        journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(4, 104, 8)), true);

        var byVoucher = journal.snapshot().byVoucher();
        assertThat(byVoucher.keySet()).containsExactly(7L, 8L);
        assertThat(byVoucher.get(7L)).extracting(AcceptedOrdersJournal.Entry::orderId).containsExactly(101L, 102L, 104L);
        assertThat(byVoucher.get(7L).get(0).atMillis()).isEqualTo(5);
        assertThat(byVoucher.get(8L)).extracting(AcceptedOrdersJournal.Entry::shopperId).containsExactly(3L);
    }

    @Test
    void forgetsOrdersOlderThanTheWindowEvenWhenNothingNewComes() {
        AcceptedOrdersJournal journal = new AcceptedOrdersJournal(Duration.ofSeconds(60), 1_000, nanos::get);
        journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(1, 101, 5)), true);
        nanos.addAndGet(Duration.ofSeconds(45).toNanos());
        journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(2, 102, 6)), true);
        nanos.addAndGet(Duration.ofSeconds(16).toNanos());

        assertThat(journal.snapshot().byVoucher().get(7L)).extracting(AcceptedOrdersJournal.Entry::orderId).containsExactly(102L);
        nanos.addAndGet(Duration.ofSeconds(45).toNanos());
        assertThat(journal.snapshot().byVoucher()).isEmpty();
        assertThat(journal.size()).isZero();
    }

    @Test
    void holdsAtMostItsBoundDroppingTheOldestFirst() {
        AcceptedOrdersJournal journal = new AcceptedOrdersJournal(Duration.ofSeconds(60), 3, nanos::get);
        for (long order = 1; order <= 5; order++) {
            journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(order, 100 + order, order)), true);
        }
        assertThat(journal.size()).isEqualTo(3);
        assertThat(journal.snapshot().byVoucher().get(7L)).extracting(AcceptedOrdersJournal.Entry::orderId)
                .containsExactly(103L, 104L, 105L);
        assertThat(journal.snapshot().complete()).as("orders of the window were dropped: a replay cannot know them")
                .isFalse();
        nanos.addAndGet(Duration.ofSeconds(61).toNanos());
        assertThat(journal.snapshot().complete()).as("once the window moved past them").isTrue();
    }

    @Test
    void aSnapshotTakenAtASwitchAndOneTakenLaterHoldEachOrderOnce() {
        AcceptedOrdersJournal journal = new AcceptedOrdersJournal(Duration.ofSeconds(60), 1_000, nanos::get);
        journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(1, 101, 5)), true);
        AcceptedOrdersJournal.Snapshot atTheSwitch = journal.snapshot();
        journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(2, 102, 6)), false);
        nanos.addAndGet(Duration.ofSeconds(61).toNanos());
        journal.accepted(8, 0, List.of(new AcceptedOrdersJournal.Accepted(3, 103, 7)), true);

        AcceptedOrdersJournal.Snapshot both = atTheSwitch.and(journal.snapshot());
        assertThat(both.entries()).extracting(AcceptedOrdersJournal.Entry::orderId).containsExactly(101L, 103L);
        assertThat(both.complete()).isTrue();
    }

    @Test
    void onOneServerTheJournalKeepsNothing() {
        AcceptedOrdersJournal journal = AcceptedOrdersJournal.keepingNothing();
        journal.accepted(7, 0, List.of(new AcceptedOrdersJournal.Accepted(1, 101, 5)), true);
        assertThat(journal.size()).isZero();
        assertThat(journal.snapshot().entries()).isEmpty();
        assertThat(journal.snapshot().complete()).isTrue();
    }
}
