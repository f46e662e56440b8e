package dev.seckill.lab;

/** How one deduction attempt ended; each is counted in its run's stats under {@link #field()}. */
public enum Outcome {
    /** The holder read a positive stock and wrote it back one lower: a unit sold. */
    DEDUCTED("deducted"),
    /** The holder read a stock of 0. */
    SOLD_OUT("soldOut"),
    /** The lock could not be had within {@code seckill.lab.lock-wait}. */
    BUSY("busy"),
    /** The fault killed this holder. */
    CRASHED("crashed"),
    /** The stock refused the holder's read or write: its fencing token was older than one already seen. */
    FENCED("fenced"),
    /** A Redis call failed (a stopped node, a timeout). */
    ERROR("errors");

    private final String field;

    Outcome(String field) {
        this.field = field;
    }

    String field() {
        return field;
    }

    public String id() {
        return name().toLowerCase().replace('_', '-');
    }
}
