package dev.seckill.lab;

/**
 * What a run did, counted by the lab itself, never guessed.
 *
 * @param attempts        deduction requests that reached the lab; {@code done} of them finished
 * @param deducted        deductions that succeeded (units the buyers were told they got)
 * @param lostUpdates     {@code deducted - (initialStock - finalStock)}: successful deductions the stock does not
 *                        show, because two holders wrote the same value
 * @param oversold        units sold beyond the stock: {@code max(0, deducted - initialStock)}
 * @param overlaps        entries into the critical section that found another holder inside
 * @param maxHolders      the most holders inside at once
 * @param deletedAnothers releases that deleted another holder's lock
 * @param releaseNotHeld  releases that found the lock no longer theirs and left it alone
 * @param stuck           the lock when the result was asked: {@code no}, {@code expiring} (with {@code stuckTtlMs})
 *                        or {@code forever} (a key without expiry that no holder will delete)
 * @param meanWaitMs      mean time an attempt waited for the lock ({@code maxWaitMs} the longest)
 * @param seconds         from the first attempt's start to the last one's end; {@code perSecond} attempts a second
 */
public record RunResult(String run, String strategy, String fault, int initialStock, long finalStock, long attempts,
        long done, long deducted, long soldOut, long busy, long crashed, long fenced, long errors, long lostUpdates,
        long oversold, long overlaps, long maxHolders, long deletedAnothers, long releaseNotHeld, String stuck,
        long stuckTtlMs, double meanWaitMs, double maxWaitMs, double seconds, double perSecond) {
}
