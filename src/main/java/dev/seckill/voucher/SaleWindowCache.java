package dev.seckill.voucher;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import org.springframework.stereotype.Component;

/**
 * Sale windows kept in memory so the seckill path never reads MySQL to validate a request. A window
 * never changes after creation, so known vouchers are cached for good; unknown ids are remembered
 * briefly (a voucher created on another instance becomes visible within {@link #UNKNOWN_TTL_MILLIS})
 * and in bounded number, so a flood of random ids can neither reach MySQL nor fill the heap.
 */
@Component
public class SaleWindowCache {

    static final long UNKNOWN_TTL_MILLIS = 1_000;
    static final int MAX_UNKNOWN = 10_000;

    private final SeckillVoucherRepository vouchers;
    private final Clock clock;
    private final Map<Long, SaleWindow> known = new ConcurrentHashMap<>();
    private final Map<Long, Long> unknownUntil = new ConcurrentHashMap<>();

    SaleWindowCache(SeckillVoucherRepository vouchers, Clock clock) {
        this.vouchers = vouchers;
        this.clock = clock;
    }

    /** The voucher's window, or 404 voucher-not-found. */
    public SaleWindow require(long voucherId) {
        SaleWindow window = known.get(voucherId);
        if (window != null) {
            return window;
        }
        Long until = unknownUntil.get(voucherId);
        long now = clock.millis();
        if (until != null && until > now) {
            throw notFound(voucherId);
        }
        return vouchers.findById(voucherId).map(v -> remember(voucherId, v.window())).orElseGet(() -> {
            if (unknownUntil.size() >= MAX_UNKNOWN) {
                unknownUntil.clear();
            }
            unknownUntil.put(voucherId, now + UNKNOWN_TTL_MILLIS);
            throw notFound(voucherId);
        });
    }

    SaleWindow remember(long voucherId, SaleWindow window) {
        known.put(voucherId, window);
        unknownUntil.remove(voucherId);
        return window;
    }

    private static SeckillProblem notFound(long voucherId) {
        return new SeckillProblem(ProblemCode.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId);
    }
}
