package dev.seckill.sale.stream;

import dev.seckill.order.NewOrderWriter;
import dev.seckill.platform.BackendUnavailableException;
import dev.seckill.platform.Outages;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;

/**
 * Says whose fault a failure to persist orders is. Only the order's own fault may count an attempt
 * (and, after {@code maxAttempts}, have it given up): everything that comes from the backends being
 * unwell is waited out however long it lasts, because giving up an accepted order over an outage loses
 * it. Decided by the {@link SQLException} in the cause chain, vendor code first (MySQL and MariaDB
 * share them), then SQLState class, then its JDBC subtype; then by the Spring types of an order's fault or of
 * contention, and last by the platform's one list of outage types ({@link Outages}, which the web layer uses too).
 */
final class FailureClassifier {

    enum Failure {
        /** The order itself is refused (duplicate key, bad data, no stock left in MySQL): counts an attempt. */
        ORDER_FAULT,
        /** Busy rows on this voucher (lock wait, deadlock, statement timeout): retry this voucher later. */
        CONTENTION,
        /** A backend is unreachable, read-only or full: nothing can be written now, by any voucher. */
        OUTAGE,
        /** Nothing known; the failure policy decides (it asks whether both backends answer). */
        UNKNOWN;

        /** Counts no attempt and is retried after a back-off. */
        boolean isOutage() {
            return this == CONTENTION || this == OUTAGE;
        }
    }

    /** Marks a failure the failure policy found to be an outage (a backend did not answer its probe). */
    static final class OutageException extends BackendUnavailableException {

        OutageException(String message, Throwable cause) {
            super(message, cause, true);
        }
    }

    /** ER_LOCK_WAIT_TIMEOUT, ER_LOCK_DEADLOCK, ER_LOCK_NOWAIT, ER_QUERY_INTERRUPTED, MariaDB
     *  ER_STATEMENT_TIMEOUT (max_statement_time), MySQL ER_QUERY_TIMEOUT (max_execution_time). */
    private static final Set<Integer> CONTENTION_CODES = Set.of(1205, 1213, 3572, 1317, 1969, 3024);

    /** Read-only: ER_OPTION_PREVENTS_STATEMENT (--read-only, a replica), ER_READ_ONLY_MODE. Full:
     *  ER_ERROR_ON_WRITE, ER_DISK_FULL, ER_RECORD_FILE_FULL (table is full). Gone: ER_CON_COUNT_ERROR,
     *  ER_SERVER_SHUTDOWN, MariaDB ER_CONNECTION_KILLED, client-side CR_CONNECTION_ERROR,
     *  CR_CONN_HOST_ERROR, CR_SERVER_GONE_ERROR, CR_SERVER_LOST. */
    private static final Set<Integer> OUTAGE_CODES = Set.of(1290, 1836, 3, 1021, 1114, 1040, 1053, 1927, 2002,
            2003, 2006, 2013);

    /** errno 28, ENOSPC, as servers quote it: "Errcode: 28", "errno: 28", "Got error 28 from storage engine". */
    private static final Pattern NO_SPACE = Pattern.compile("(?i)(errcode: ?28|errno: ?28|error 28\\b|no space left)");

    private FailureClassifier() {
    }

    static Failure classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof NewOrderWriter.OrderRejectedException) {
                return Failure.ORDER_FAULT;
            }
            if (t instanceof OutageException) {
                return Failure.OUTAGE;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                Failure known = classifySql(sql);
                if (known != Failure.UNKNOWN) {
                    return known;
                }
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            Failure known = classifyType(t);
            if (known != Failure.UNKNOWN) {
                return known;
            }
        }
        return Failure.UNKNOWN;
    }

    /** Also looks at the chained next exceptions: a batch's {@code BatchUpdateException} keeps the real one there. */
    private static Failure classifySql(SQLException first) {
        for (SQLException e = first; e != null; e = e.getNextException()) {
            Failure known = byCode(e);
            if (known == Failure.UNKNOWN) {
                known = byState(e.getSQLState());
            }
            if (known == Failure.UNKNOWN) {
                known = bySubtype(e);
            }
            if (known != Failure.UNKNOWN) {
                return known;
            }
            if (e.getNextException() == e) {
                break;
            }
        }
        return Failure.UNKNOWN;
    }

    private static Failure byCode(SQLException e) {
        int code = e.getErrorCode();
        if (CONTENTION_CODES.contains(code)) {
            return Failure.CONTENTION;
        }
        if (OUTAGE_CODES.contains(code) || (e.getMessage() != null && NO_SPACE.matcher(e.getMessage()).find())) {
            return Failure.OUTAGE;
        }
        return Failure.UNKNOWN;
    }

    private static Failure byState(String state) {
        if (state == null || state.length() < 2) {
            return Failure.UNKNOWN;
        }
        return switch (state.substring(0, 2)) {
            case "23", "22" -> Failure.ORDER_FAULT; // integrity constraint violation, data exception
            case "08" -> Failure.OUTAGE; // connection exception
            case "40" -> Failure.CONTENTION; // transaction rollback: deadlock, serialization failure
            case "HY" -> state.startsWith("HYT") ? Failure.CONTENTION : Failure.UNKNOWN; // HYT00/HYT01 timeouts
            case "70" -> Failure.CONTENTION; // 70100 query interrupted (MariaDB's statement time-outs)
            default -> Failure.UNKNOWN;
        };
    }

    private static Failure bySubtype(SQLException e) {
        if (e instanceof SQLTimeoutException || e instanceof SQLTransactionRollbackException) {
            return Failure.CONTENTION;
        }
        if (Outages.isLostConnection(e)) {
            return Failure.OUTAGE;
        }
        return Failure.UNKNOWN;
    }

    private static Failure classifyType(Throwable t) {
        if (t instanceof DataIntegrityViolationException) {
            return Failure.ORDER_FAULT;
        }
        if (t instanceof PessimisticLockingFailureException || t instanceof QueryTimeoutException) {
            return Failure.CONTENTION;
        }
        // Out of reach, read-only or full: the platform's one list of outage types. TransientDataAccessResourceException
        // too, for the consumers alone (the web layer answers it 500: Spring maps Connector/J's S1xxx states to it).
        if (Outages.isOutageType(t) || t instanceof TransientDataAccessResourceException) {
            return Failure.OUTAGE;
        }
        return Failure.UNKNOWN;
    }
}
