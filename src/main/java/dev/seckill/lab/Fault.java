package dev.seckill.lab;

import java.util.Arrays;

/** What goes wrong during a run, switched on per run; {@link Strategy#faults()} says where each applies. */
public enum Fault {
    NONE("none"),
    /** Every {@code pause-every}-th holder, if it found stock left, stalls {@code pause} before writing it back. */
    PAUSE("pause"),
    /**
     * The {@code crash-at}-th holder dies right after its SETNX, before its EXPIRE: it leaves in Redis what
     * a crash leaves, a lock nobody will delete or expire.
     */
    CRASH_BEFORE_EXPIRY("crash-before-expiry"),
    /**
     * The {@code crash-at}-th holder (a Redisson one: attempt {@code crash-at}) dies inside the critical section: nothing released; a Redisson holder's
     * process (its own clients, and with them its watchdog) is shut down.
     */
    CRASH_HOLDING("crash-holding"),
    /** One of the MultiLock's three nodes is stopped for the run (stopped by the runner, checked by the lab). */
    NODE_DOWN("node-down");

    private final String id;

    Fault(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    boolean crashes() {
        return this == CRASH_BEFORE_EXPIRY || this == CRASH_HOLDING;
    }

    public static Fault of(String id) {
        return Arrays.stream(values()).filter(f -> f.id.equals(id)).findFirst()
                .orElseThrow(() -> new LabException(LabException.Problem.UNKNOWN_FAULT, "No fault '" + id
                        + "'; there are " + Arrays.stream(values()).map(Fault::id).toList()));
    }
}
