package dev.seckill.web;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.List;

import dev.seckill.id.IdsUnavailableException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisTimeoutException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

/** Which failures are outages (MySQL or Redis out of reach: 503 backend-unavailable), not bugs (500). */
final class Outages {

    /*
     * ConnectException: a backend that refuses connections (its process is gone) is not always reported as one of
     * the types above; Redisson wraps it in a plain RedisException ("Unexpected exception while processing
     * command") when it fails a command it had queued, and the admin side answered 500 for it (RedisChaosIT).
     */
    private static final List<Class<? extends Exception>> OUTAGES = List.of(CannotCreateTransactionException.class,
            DataAccessResourceFailureException.class, RedisConnectionException.class, RedisTimeoutException.class,
            IdsUnavailableException.class, ConnectException.class);

    private Outages() {
    }

    /** Whether this exception is answered as an outage (backend-unavailable) by the handlers here. */
    static boolean isOutage(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            Throwable candidate = t;
            if (OUTAGES.stream().anyMatch(outage -> outage.isInstance(candidate))) {
                return true;
            }
        }
        return lostDatabaseConnection(ex);
    }

    /**
     * A connection that dies inside a transaction (socket timeout, reset) does not always arrive as one
     * of the outage types above: when the rollback on the dead connection fails too, Spring throws that
     * failure instead (TransactionSystemException, JpaSystemException). Its cause still says what
     * happened: SQLState class 08 is "connection exception".
     */
    static boolean lostDatabaseConnection(Throwable ex) {
        int depth = 0;
        for (Throwable t = ex; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }
}
