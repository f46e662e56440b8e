package dev.seckill.sale.stream;

import dev.seckill.order.GiveUpLookup;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import com.mysql.cj.jdbc.exceptions.MySQLTimeoutException;
import com.mysql.cj.jdbc.exceptions.SQLError;
import dev.seckill.order.NewOrderWriter;
import dev.seckill.sale.stream.OrderFailurePolicy.Decision;
import dev.seckill.order.GiveUpLookup.Found;
import dev.seckill.salestate.QueuedOrder;
import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What one failing order comes to, against a fake stream and a fake MySQL. */
class OrderFailurePolicyTest {

    static final StreamSettings SETTINGS = new StreamSettings("order-writers", 10, Duration.ofMillis(20),
            Duration.ofSeconds(30), 3, 1, "test");
    static final SQLErrorCodeSQLExceptionTranslator MYSQL = new SQLErrorCodeSQLExceptionTranslator("MySQL");

    final FakeConsumerStream stream = new FakeConsumerStream();
    final FakeMySql mysql = new FakeMySql();
    final SeckillLocks locks = mock(SeckillLocks.class);
    final HeldLock alone = mock(HeldLock.class);
    final OrderFailurePolicy policy = new OrderFailurePolicy(stream, mysql, locks, SETTINGS);

    @BeforeEach
    void theVoucherCanBeHadAlone() {
        when(locks.lockOrderWritesExclusively(anyLong())).thenReturn(Optional.of(alone));
    }
    final QueuedOrder order = stream.accept(1, 10, 7);

    @Test
    void outagesCountNoAttemptHoweverLongTheyLast() {
        List<RuntimeException> outages = List.of(
                jdbc("Lock wait timeout exceeded; try restarting transaction", "HY000", 1205),
                jdbc("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213),
                jdbc("Communications link failure", "08S01", 0),
                jdbc("The MariaDB server is running with the --read-only option", "HY000", 1290),
                jdbc("Running in read-only mode", "HY000", 1836),
                jdbc("The table 'voucher_order' is full", "HY000", 1114),
                jdbc("Disk full (/tmp/x); waiting for someone to free some space...", "HY000", 1021),
                jdbc("Query execution was interrupted (max_statement_time exceeded)", "70100", 1969),
                jdbc("Query execution was interrupted, maximum statement execution time exceeded", "HY000", 3024),
                MYSQL.translate("query", "UPDATE", new MySQLTimeoutException()),
                new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection"),
                FakeConsumerStream.redisDown());
        for (int round = 0; round < 5; round++) {
            for (RuntimeException outage : outages) {
                assertThatThrownBy(() -> policy.failed(order, outage)).as(outage.toString()).isSameAs(outage);
            }
        }
        assertThat(stream.attempts).isEmpty();
        assertThat(stream.compensated).isEmpty();
        assertThat(mysql.lookups).isZero();
        assertThat(stream.pending).contains(10L);
    }

    @Test
    void anOrdersOwnFaultCountsAndIsCompensatedAfterMaxAttemptsWhenMySqlHasNothing() {
        RuntimeException duplicate = jdbc("Duplicate entry '7-1' for key 'uk_voucher_order_user_voucher'", "23000", 1062);
        assertThat(policy.failed(order, duplicate)).isEqualTo(Decision.RETRY_LATER);
        assertThat(policy.failed(order, duplicate)).isEqualTo(Decision.RETRY_LATER);
        assertThat(mysql.lookups).as("MySQL is asked only before giving up").isZero();

        assertThat(policy.failed(order, new NewOrderWriter.OrderRejectedException("no stock left")))
                .isEqualTo(Decision.COMPENSATED);
        assertThat(mysql.lookups).isEqualTo(1);
        assertThat(stream.compensated).containsExactly(order);
        assertThat(stream.pending).doesNotContain(10L);

        // a second consumer racing to the same conclusion compensates nothing twice
        stream.attempts.put(order.messageId(), 2L);
        assertThat(policy.failed(order, duplicate)).isEqualTo(Decision.GIVEN_UP_ALREADY);
        assertThat(stream.compensated).hasSize(1);
        verify(alone, times(2)).close();
    }

    @Test
    void aGiveUpWhileTheVouchersWritesGoOnIsTriedLaterWithoutAskingMySqlOrCompensating() {
        stream.attempts.put(order.messageId(), 2L);
        when(locks.lockOrderWritesExclusively(order.voucherId())).thenReturn(Optional.empty());
        RuntimeException duplicate = jdbc("Duplicate entry '7-1' for key 'uk_voucher_order_user_voucher'", "23000", 1062);

        assertThat(policy.failed(order, duplicate)).isEqualTo(Decision.RETRY_LATER);
        assertThat(mysql.lookups).isZero();
        assertThat(stream.compensated).isEmpty();
        assertThat(stream.pending).contains(10L);
    }

    @Test
    void anOrderFoundInMySqlAtGiveUpIsAcknowledgedNotCompensated() {
        stream.attempts.put(order.messageId(), 2L);
        mysql.found = Found.THIS_ORDER;
        RuntimeException duplicate = jdbc("Duplicate entry '10' for key 'PRIMARY'", "23000", 1062);

        assertThat(policy.failed(order, duplicate)).isEqualTo(Decision.ACKNOWLEDGED);
        assertThat(stream.acknowledged).containsExactly(order);
        assertThat(stream.compensated).isEmpty();
        assertThat(stream.duplicates).isEmpty();
    }

    @Test
    void anOrderWhoseShopperHoldsAnotherConfirmedOrderIsGivenUpWithoutCompensation() {
        stream.attempts.put(order.messageId(), 2L);
        mysql.found = Found.OTHER_ORDER;
        RuntimeException duplicate = jdbc("Duplicate entry '7-1' for key 'uk_voucher_order_user_voucher'", "23000", 1062);

        assertThat(policy.failed(order, duplicate)).isEqualTo(Decision.GAVE_UP_AS_DUPLICATE);
        assertThat(stream.duplicates).containsExactly(order);
        assertThat(stream.compensated).as("no unit back, the buyer stays").isEmpty();
        assertThat(stream.pending).doesNotContain(10L);
    }

    @Test
    void mySqlGoneWhenAskedBeforeGivingUpGivesNothingUp() {
        stream.attempts.put(order.messageId(), 2L);
        mysql.failure = new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection");

        assertThatThrownBy(() -> policy.failed(order, jdbc("Duplicate entry", "23000", 1062)))
                .isSameAs(mysql.failure);
        assertThat(stream.compensated).isEmpty();
        assertThat(stream.pending).contains(10L);
    }

    @Test
    void anUnknownFailureCountsOnlyWhileBothBackendsAnswer() {
        RuntimeException strange = new IllegalStateException("something unexpected");

        mysql.answers = false;
        assertThatThrownBy(() -> policy.failed(order, strange)).isInstanceOf(FailureClassifier.OutageException.class)
                .hasCause(strange);
        mysql.answers = true;
        stream.down = FakeConsumerStream.redisDown();
        assertThatThrownBy(() -> policy.failed(order, strange)).isInstanceOf(FailureClassifier.OutageException.class);
        stream.down = null;
        assertThat(stream.attempts).isEmpty();

        assertThat(policy.failed(order, strange)).isEqualTo(Decision.RETRY_LATER);
        assertThat(stream.attempts).containsEntry(order.messageId(), 1L);
    }

    private static RuntimeException jdbc(String message, String state, int code) {
        java.sql.SQLException e = SQLError.createSQLException(message, state, code, null);
        RuntimeException translated = MYSQL.translate("PreparedStatementCallback", "INSERT", e);
        return translated != null ? translated : new UncategorizedSQLException("PreparedStatementCallback", "INSERT", e);
    }

    static final class FakeMySql implements GiveUpLookup {

        Found found = Found.NOTHING;
        boolean answers = true;
        RuntimeException failure;
        int lookups;

        @Override
        public Found find(QueuedOrder order) {
            lookups++;
            if (failure != null) {
                throw failure;
            }
            return found;
        }

        @Override
        public boolean answers() {
            return answers;
        }
    }
}
