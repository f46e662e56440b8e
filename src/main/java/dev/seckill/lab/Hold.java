package dev.seckill.lab;

/** A lock that a deduction got, from acquiring it to releasing or abandoning it. */
interface Hold {

    /** How a release went. */
    enum Release {
        /** The holder deleted its own lock. */
        RELEASED,
        /** A plain DEL found another holder's lock and deleted it: the articles' "自己加的锁被别人释放了". */
        DELETED_ANOTHERS,
        /** The lock was no longer the holder's (its expiry ran out): nothing deleted, as it should be. */
        NOT_HELD
    }

    /** The fencing token of the lock, or 0 for a lock without one. */
    default long token() {
        return 0;
    }

    /** Whatever the strategy does between acquiring and working: only {@code setnx-then-expire}'s EXPIRE. */
    default void afterAcquire() {
    }

    Release release();
}
