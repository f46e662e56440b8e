package dev.seckill.sale.stream;

import dev.seckill.order.NewOrderWriter;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.stream.Stream;

import com.mysql.cj.jdbc.exceptions.MySQLTimeoutException;
import com.mysql.cj.jdbc.exceptions.SQLError;
import dev.seckill.sale.stream.FailureClassifier.Failure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisReadonlyException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisTimeoutException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

import static dev.seckill.sale.stream.FailureClassifier.Failure.CONTENTION;
import static dev.seckill.sale.stream.FailureClassifier.Failure.ORDER_FAULT;
import static dev.seckill.sale.stream.FailureClassifier.Failure.OUTAGE;
import static dev.seckill.sale.stream.FailureClassifier.Failure.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every MySQL/MariaDB error the failure policy must tell apart, built the way they reach the consumer:
 * Connector/J's own exception for the code and state, translated by the same translator JdbcTemplate
 * uses. A wrong answer here either gives up accepted orders during an outage (lost orders) or retries a
 * poison order for ever.
 */
class FailureClassifierTest {

    private static final SQLErrorCodeSQLExceptionTranslator MYSQL = new SQLErrorCodeSQLExceptionTranslator("MySQL");
    private static final SQLErrorCodeSQLExceptionTranslator MARIADB = new SQLErrorCodeSQLExceptionTranslator("MariaDB");

    static Stream<Arguments> sqlErrors() {
        return Stream.of(
                // the order's own fault
                sql("Duplicate entry '7-3' for key 'uk_voucher_order_user_voucher'", "23000", 1062, ORDER_FAULT),
                sql("Duplicate entry '42' for key 'PRIMARY'", "23000", 1062, ORDER_FAULT),
                sql("CONSTRAINT `chk_seckill_voucher_stock` failed for `seckill`.`seckill_voucher`", "23000", 4025,
                        ORDER_FAULT),
                sql("Column 'user_id' cannot be null", "23000", 1048, ORDER_FAULT),
                sql("Data too long for column 'status' at row 1", "22001", 1406, ORDER_FAULT),
                sql("Out of range value for column 'stock' at row 1", "22003", 1264, ORDER_FAULT),
                sql("Incorrect datetime value: '0000-00-00'", "22007", 1292, ORDER_FAULT),
                // connection loss
                sql("Communications link failure", "08S01", 0, OUTAGE),
                sql("Could not create connection to database server", "08001", 0, OUTAGE),
                sql("Too many connections", "08004", 1040, OUTAGE),
                sql("Server shutdown in progress", "08S01", 1053, OUTAGE),
                sql("Connection was killed", "70100", 1927, OUTAGE),
                // read-only
                sql("The MariaDB server is running with the --read-only option so it cannot execute this statement",
                        "HY000", 1290, OUTAGE),
                sql("Running in read-only mode", "HY000", 1836, OUTAGE),
                // disk full, out of space
                sql("Disk full (/var/tmp/#sql-1.MAI); waiting for someone to free some space...", "HY000", 1021, OUTAGE),
                sql("The table 'voucher_order' is full", "HY000", 1114, OUTAGE),
                sql("Error writing file '/tmp/MYfd=12' (Errcode: 28 \"No space left on device\")", "HY000", 3, OUTAGE),
                sql("Got error 28 \"No space left on device\" from storage engine InnoDB", "HY000", 1030, OUTAGE),
                // lock wait timeout, deadlock
                sql("Lock wait timeout exceeded; try restarting transaction", "HY000", 1205, CONTENTION),
                sql("Lock wait timeout exceeded; try restarting transaction", "40001", 1205, CONTENTION),
                sql("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213, CONTENTION),
                sql("Serialization failure", "40001", 0, CONTENTION),
                // statement time-outs
                sql("Query execution was interrupted (max_statement_time exceeded)", "70100", 1969, CONTENTION),
                sql("Query execution was interrupted, maximum statement execution time exceeded", "HY000", 3024,
                        CONTENTION),
                sql("Query execution was interrupted", "70100", 1317, CONTENTION),
                // nothing known
                sql("Unknown error", "HY000", 1105, UNKNOWN),
                sql("Table 'seckill.voucher_order' doesn't exist", "42S02", 1146, UNKNOWN));
    }

    private static Arguments sql(String message, String state, int code, Failure expected) {
        return Arguments.of(state + "/" + code + " " + message, message, state, code, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sqlErrors")
    void sqlErrorsAsJdbcTemplateThrowsThem(String name, String message, String state, int code, Failure expected) {
        SQLException raw = SQLError.createSQLException(message, state, code, null);
        assertThat(FailureClassifier.classify(raw)).as("the raw SQLException").isEqualTo(expected);
        for (SQLErrorCodeSQLExceptionTranslator translator : new SQLErrorCodeSQLExceptionTranslator[] {MYSQL, MARIADB}) {
            DataAccessException translated = asJdbcTemplateThrowsIt(translator,
                    SQLError.createSQLException(message, state, code, null));
            assertThat(FailureClassifier.classify(translated)).as("translated to %s", translated.getClass().getSimpleName())
                    .isEqualTo(expected);
            // @Transactional's commit or rollback wraps it once more
            assertThat(FailureClassifier.classify(new TransactionSystemException("commit failed", translated)))
                    .isEqualTo(expected);
        }
    }

    /** JdbcTemplate.translateException: the translator's answer, else UncategorizedSQLException. */
    private static DataAccessException asJdbcTemplateThrowsIt(SQLErrorCodeSQLExceptionTranslator translator,
            SQLException e) {
        String sql = "UPDATE seckill_voucher SET stock = stock - ? WHERE voucher_id = ? AND stock >= ?";
        DataAccessException translated = translator.translate("PreparedStatementCallback", sql, e);
        return translated != null ? translated : new UncategorizedSQLException("PreparedStatementCallback", sql, e);
    }

    @Test
    void aBatchInsertKeepsTheRealErrorAsItsCauseOrNextException() {
        SQLException duplicate = SQLError.createSQLException("Duplicate entry '42' for key 'PRIMARY'", "23000", 1062, null);
        BatchUpdateException asCause = new BatchUpdateException("batch failed", null, 0, new int[0], duplicate);
        BatchUpdateException asNext = new BatchUpdateException(new int[0]);
        asNext.setNextException(SQLError.createSQLException("Lock wait timeout exceeded", "HY000", 1205, null));

        assertThat(FailureClassifier.classify(asJdbcTemplateThrowsIt(MYSQL, asCause))).isEqualTo(ORDER_FAULT);
        assertThat(FailureClassifier.classify(asJdbcTemplateThrowsIt(MYSQL, asNext))).isEqualTo(CONTENTION);
    }

    @Test
    void noConnectionFromThePoolIsAnOutageWhateverItsState() {
        SQLTransientConnectionException hikari = new SQLTransientConnectionException(
                "HikariPool-1 - Connection is not available, request timed out after 3000ms.");
        assertThat(FailureClassifier.classify(new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                hikari))).isEqualTo(OUTAGE);
        assertThat(FailureClassifier.classify(new CannotCreateTransactionException(
                "Could not open JDBC Connection for transaction", hikari))).isEqualTo(OUTAGE);
        assertThat(FailureClassifier.classify(new CannotCreateTransactionException("no cause"))).isEqualTo(OUTAGE);
    }

    @Test
    void queryTimeoutsAreContention() {
        assertThat(FailureClassifier.classify(new MySQLTimeoutException())).isEqualTo(CONTENTION);
        assertThat(FailureClassifier.classify(asJdbcTemplateThrowsIt(MYSQL, new MySQLTimeoutException())))
                .isEqualTo(CONTENTION);
        assertThat(FailureClassifier.classify(new QueryTimeoutException("timed out"))).isEqualTo(CONTENTION);
    }

    /** The consumers wait a transient resource failure out (the web layer answers it 500: see ApiExceptionHandlerTest). */
    @Test
    void transientResourceFailuresAreWaitedOutByTheConsumers() {
        assertThat(FailureClassifier.classify(new TransientDataAccessResourceException("resource busy"))).isEqualTo(OUTAGE);
    }

    @Test
    void redisUnreachableOrTimingOutIsAnOutage() {
        assertThat(FailureClassifier.classify(new RedisConnectionException("Unable to connect to Redis server")))
                .isEqualTo(OUTAGE);
        assertThat(FailureClassifier.classify(new RedisTimeoutException("Command execution timeout"))).isEqualTo(OUTAGE);
        assertThat(FailureClassifier.classify(new RedisResponseTimeoutException("Redis server response timeout")))
                .isEqualTo(OUTAGE);
        assertThat(FailureClassifier.classify(new RedisReadonlyException("READONLY You can't write against a read "
                + "only replica."))).isEqualTo(OUTAGE);
        assertThat(FailureClassifier.classify(new RedisConnectionFailureException("Unable to connect")))
                .isEqualTo(OUTAGE);
        assertThat(FailureClassifier.classify(new RedisException("ERR unknown command"))).isEqualTo(UNKNOWN);
    }

    @Test
    void aRejectedOrderIsItsOwnFaultAndAProbedOutageIsAnOutage() {
        assertThat(FailureClassifier.classify(new TransactionSystemException("rolled back",
                new NewOrderWriter.OrderRejectedException("no stock left")))).isEqualTo(ORDER_FAULT);
        assertThat(FailureClassifier.classify(new FailureClassifier.OutageException("MySQL did not answer",
                new IllegalStateException("strange")))).isEqualTo(OUTAGE);
    }

    @Test
    void anythingElseIsUnknown() {
        assertThat(FailureClassifier.classify(new IllegalStateException("a bug"))).isEqualTo(UNKNOWN);
        assertThat(FailureClassifier.classify(new NullPointerException())).isEqualTo(UNKNOWN);
    }

    @Test
    void onlyContentionAndOutagesAreOutages() {
        assertThat(ORDER_FAULT.isOutage()).isFalse();
        assertThat(UNKNOWN.isOutage()).isFalse();
        assertThat(CONTENTION.isOutage()).isTrue();
        assertThat(OUTAGE.isOutage()).isTrue();
    }
}
