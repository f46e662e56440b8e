package dev.seckill.sale.stream;

/**
 * What one voucher's stream needs next from one consumer thread: its timers, all on the monotonic
 * {@link Ticker}, and its counts of empty reads and failures, kept by {@link StreamPoller},
 * {@link PollFailures} and {@link VoucherRegistry}. Not thread-safe: one per consumer thread and voucher.
 */
final class VoucherPollState {

    int emptyReads;
    /** Not read for new messages before then (quiet stream); a due claim or own-pending read overrides it. */
    long idleUntil;
    /** Re-read this consumer's own unacknowledged messages: at start-up, after a failure, orders left for later. */
    boolean ownPending = true;
    long ownPendingDue;
    int failures;
    /** Not touched at all before then, after a failure. */
    long failedUntil;

    VoucherPollState(long now) {
        idleUntil = now;
        ownPendingDue = now;
        failedUntil = now;
    }
}
