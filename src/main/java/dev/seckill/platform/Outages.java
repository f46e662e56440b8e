package dev.seckill.platform;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.List;

import org.redisson.client.RedisBusyException;
import org.redisson.client.RedisClusterDownException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisLoadingException;
import org.redisson.client.RedisMasterDownException;
import org.redisson.client.RedisNoReplicasException;
import org.redisson.client.RedisNodeNotFoundException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisReadonlyException;
import org.redisson.client.RedisReconnectedException;
import org.redisson.client.RedisRetryException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisTryAgainException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * The one classifier of outages: which failures mean MySQL or Redis is out of reach, read-only or full (wait it
 * out; answer 503 backend-unavailable), as opposed to a bug (500) or an order's own fault. The web layer asks
 * {@link #isOutage}; the order stream consumers build their failure policy on {@link #isOutageType} and
 * {@link #lostDatabaseConnection}, adding MySQL's vendor codes.
 */
public final class Outages {

    /*
     * ConnectException: a backend that refuses connections (its process is gone) is not always reported as one of
     * the Redisson types; Redisson wraps it in a plain RedisException ("Unexpected exception while processing
     * command") when it fails a command it had queued, and the admin side would answer 500 for it.
     * CannotGetJdbcConnectionException and Spring Data Redis' RedisConnectionFailureException are
     * DataAccessResourceFailureExceptions. Not TransientDataAccessResourceException: Spring maps Connector/J's S1xxx
     * states to it, and those are our own bugs (a column index out of range, a write in a read-only transaction),
     * which must stay 500s with their stack trace; a real lost connection under it is found by its SQLState 08.
     */
    private static final List<Class<? extends Throwable>> OUTAGE_TYPES = List.of(BackendUnavailableException.class,
            CannotCreateTransactionException.class, DataAccessResourceFailureException.class,
            RedisConnectionException.class, RedisTimeoutException.class,
            RedisRetryException.class, RedisLoadingException.class, RedisReadonlyException.class,
            RedisMasterDownException.class, RedisClusterDownException.class, RedisTryAgainException.class,
            RedisOutOfMemoryException.class, RedisBusyException.class, RedisNoReplicasException.class,
            RedisReconnectedException.class, RedisNodeNotFoundException.class, ConnectException.class,
            SocketTimeoutException.class);

    private static final int MAX_DEPTH = 32;

    private Outages() {
    }

    /** Whether this failure, or anything in its cause chain, is an outage. */
    public static boolean isOutage(Throwable ex) {
        int depth = 0;
        for (Throwable t = ex; t != null && depth < MAX_DEPTH; t = t.getCause(), depth++) {
            if (isOutageType(t)) {
                return true;
            }
        }
        return lostDatabaseConnection(ex);
    }

    /** Whether this one throwable (not its causes) is of a type that means a backend is out of reach. */
    public static boolean isOutageType(Throwable t) {
        for (Class<? extends Throwable> type : OUTAGE_TYPES) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A connection that dies inside a transaction (socket timeout, reset) does not always arrive as one
     * of the outage types: when the rollback on the dead connection fails too, Spring throws that
     * failure instead (TransactionSystemException, JpaSystemException). Its cause still says what
     * happened: SQLState class 08 is "connection exception".
     */
    public static boolean lostDatabaseConnection(Throwable ex) {
        int depth = 0;
        for (Throwable t = ex; t != null && depth < MAX_DEPTH; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql && isLostConnection(sql)) {
                return true;
            }
        }
        return false;
    }

    /** One SQLException (not its chain): a connection exception by JDBC subtype or by SQLState class 08. */
    public static boolean isLostConnection(SQLException e) {
        return e instanceof SQLTransientConnectionException || e instanceof SQLNonTransientConnectionException
                || e instanceof SQLRecoverableException
                || (e.getSQLState() != null && e.getSQLState().startsWith("08"));
    }
}
