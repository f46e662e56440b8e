package dev.seckill.sale.ticket;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

import dev.seckill.ratelimit.ShopperRateLimits;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.voucher.SaleWindow;
import dev.seckill.voucher.SaleWindowCache;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Service;

/**
 * Challenges and tickets, decided in order of cost: the sale window (memory), the shopper's limit (shared, in
 * Redis), the solution (one SHA-256 and one HMAC), then one Redis call that spends the solution and stores the
 * ticket together.
 */
@Service
public class PurchaseTickets {

    /**
     * A spent solution is remembered this much longer than a challenge lives: instances whose clocks disagree by
     * less still find it spent. A fixed time, not one counted from the challenge's expiry by this instance's clock.
     */
    static final Duration CLOCK_SKEW_MARGIN = Duration.ofMinutes(5);

    private final SaleWindowCache windows;
    private final ShopperRateLimits limits;
    private final Challenges challenges;
    private final TicketStore store;
    private final TicketSettings settings;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Timer verification;

    PurchaseTickets(SaleWindowCache windows, ShopperRateLimits limits, Challenges challenges, TicketStore store,
            TicketSettings settings, Clock clock, MeterRegistry registry) {
        this.windows = windows;
        this.limits = limits;
        this.challenges = challenges;
        this.store = store;
        this.settings = settings;
        this.clock = clock;
        this.verification = Timer.builder("seckill.tickets.challenge.verification")
                .description("Checking one challenge solution (its CPU cost on the server)").register(registry);
    }

    /** A challenge for the shopper's ticket, any time before the sale ends (the page solves it during the countdown). */
    public Challenge challenge(long shopperId, long voucherId) {
        SaleWindow window = windows.require(voucherId);
        Instant now = clock.instant();
        if (!now.isBefore(window.end())) {
            throw new Refusal(Reason.SALE_ENDED, "The sale ended at " + window.end());
        }
        limits.requireChallengePermit(shopperId);
        return challenges.create(shopperId, voucherId, difficultyOf(window), now.plus(settings.challengeExpiry()));
    }

    /**
     * A ticket for the shopper, once the sale is open: {@code sale-not-started} (with the seconds left) before.
     *
     * @param solution the widget's solution; ignored for a voucher that asks no challenge (difficulty 0)
     */
    public Ticket issue(long shopperId, long voucherId, String solution) {
        SaleWindow window = windows.require(voucherId);
        window.requireOpenAt(clock.instant());
        if (window.hasRoom()) {
            // Its tickets are its admissions (dev.seckill.sale.room): one here would walk past the queue.
            throw new Refusal(Reason.WAITING_ROOM_REQUIRED);
        }
        limits.requireTicketPermit(shopperId);
        Solution spent = verify(shopperId, voucherId, window, solution);
        String ticket = newTicket();
        if (!store.issue(voucherId, shopperId, ticket, settings.lifetime(), spent == null ? null : spent.challenge(),
                spent == null ? Duration.ZERO : spent.remembered())) {
            throw new Refusal(Reason.CHALLENGE_SPENT);
        }
        return new Ticket(ticket, voucherId, settings.lifetime().toSeconds());
    }

    /** A verified challenge solution, to be spent (remembered this long) in the Redis call it pays for. */
    public record Solution(String challenge, Duration remembered) {
    }

    /**
     * Checks the solution a voucher asks for (its difficulty, or the default), before a ticket or a place in its
     * waiting room is given for it; null when it asks none (difficulty 0).
     *
     * @throws Refusal {@code CHALLENGE_REQUIRED} without a solution, {@code CHALLENGE_INVALID} for a wrong one
     */
    public Solution verify(long shopperId, long voucherId, SaleWindow window, String solution) {
        int difficulty = difficultyOf(window);
        if (difficulty == 0) {
            return null;
        }
        if (solution == null || solution.isBlank()) {
            throw new Refusal(Reason.CHALLENGE_REQUIRED);
        }
        long start = System.nanoTime();
        try {
            return new Solution(challenges.verify(solution, shopperId, voucherId, difficulty).challenge(),
                    settings.challengeExpiry().plus(CLOCK_SKEW_MARGIN));
        } finally {
            verification.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    /** A new ticket: 18 random bytes, URL-safe. */
    public String newTicket() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The voucher's challenge difficulty, or the default when it set none. */
    int difficultyOf(SaleWindow window) {
        return window.challengeDifficulty() != null ? window.challengeDifficulty() : settings.challengeDifficulty();
    }
}
