package dev.seckill.sale.room;

/**
 * The odds that a place beyond the units left gets its turn all the same: it does when fewer of those before it buy
 * than there are units, which happens as admissions go unused. Each admission still open or still to come before the
 * place is taken to buy at the rate the room's ended admissions did (spent ones among all that ended: spent or run
 * out), independently: the binomial's chance of fewer buyers than units.
 */
final class RoomOdds {

    /** Up to this many terms the binomial is summed exactly, beyond it approximated. */
    static final long EXACT_UP_TO = 64;

    /** Fewer ended admissions than this say too little of the room's rate to give odds on. */
    static final long MIN_ENDED = 20;

    private RoomOdds() {
    }

    /**
     * @param stock the units left (held by open admissions or free)
     * @param held  open admissions, each of which may buy one
     * @param ahead places before this one not let in yet
     * @param ended admissions that ended, spent or run out
     * @param spent admissions spent on orders that stand
     * @return the chance, 0 to 1, or null while fewer than {@link #MIN_ENDED} admissions have ended
     */
    static Double ofATurn(long stock, long held, long ahead, long ended, long spent) {
        if (ended < MIN_ENDED) {
            return null;
        }
        double buys = Math.min(1.0, Math.max(0.0, spent / (double) ended));
        long before = held + ahead;
        if (before < stock || buys == 0.0) {
            return 1.0;
        }
        if (buys == 1.0 || stock <= 0) {
            return 0.0;
        }
        if (Math.min(stock, before) > EXACT_UP_TO) {
            // Asked on every waiting shopper's look: the normal approximation, with its continuity correction, in
            // constant time (the exact sum would take a term per unit left); an estimate either way.
            double mean = before * buys;
            double spread = Math.sqrt(mean * (1 - buys));
            return normal((stock - 0.5 - mean) / spread);
        }
        // P(X <= stock - 1) for X ~ Binomial(before, buys), its terms in logarithms: (1 - buys)^before alone
        // underflows a double for a room of thousands.
        double logBuy = Math.log(buys);
        double logSkip = Math.log1p(-buys);
        double term = before * logSkip;
        double[] logs = new double[(int) Math.min(stock, before + 1)];
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < logs.length; k++) {
            logs[k] = term;
            max = Math.max(max, term);
            term += Math.log((double) (before - k) / (k + 1)) + logBuy - logSkip;
        }
        double sum = 0;
        for (double log : logs) {
            sum += Math.exp(log - max);
        }
        return Math.min(1.0, Math.exp(max + Math.log(sum)));
    }

    /** The standard normal distribution function, from erfc's Chebyshev fit (fractional error below 1.2e-7). */
    static double normal(double z) {
        double x = -z / Math.sqrt(2);
        double abs = Math.abs(x);
        double t = 1 / (1 + 0.5 * abs);
        double erfc = t * Math.exp(-abs * abs - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223
                + t * 0.17087277)))))))));
        return 0.5 * (x >= 0 ? erfc : 2 - erfc);
    }
}
