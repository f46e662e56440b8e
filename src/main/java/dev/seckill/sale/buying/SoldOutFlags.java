package dev.seckill.sale.buying;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

import dev.seckill.sale.UnitsBack;
import dev.seckill.salestate.RedisDatabase;
import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.StockCounterWritten;
import dev.seckill.salestate.StockSettings;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Which vouchers are sold out, known in memory on every instance, so that after a sale ends refusals
 * cost almost no Redis call. Set when the purchase script answers sold out, cleared when stock comes back
 * (a reset, an order given up, a reconcile); both spread to the other instances through Redis pub/sub.
 * <p>
 * A flag heals by itself: it is trusted only for {@code seckill.stock.sold-out-recheck} after it was set
 * (monotonic time). Then the next request, and only it, re-reads the counter (one GET; the others keep
 * being refused from memory meanwhile) and the flag is renewed or dropped. So a flag that should not be
 * there (a sold-out answer read before a restock and reported after it, spread to every instance; a
 * clear message one instance never got) costs at most one interval of refusals, never a lasting one. The
 * sold-out refusal path costs at most one Redis call per voucher per instance per interval, and the
 * purchase script still decides every order: a missing flag never sells what is not there.
 * <p>
 * A local generation per voucher, bumped by every clear, keeps the sold-out answer to a request that
 * began before a clear from setting the flag again (and spreading it).
 */
@Component
public class SoldOutFlags {

    /** Pub/sub ignores Redis database numbers: the topic carries it, so apps on different databases never mix. */
    static final String TOPIC = "seckill:sold-out:db";

    /** {@link #admit}'s answer for a voucher known to be sold out: refuse without calling Redis. */
    public static final long SOLD_OUT = -1;

    /**
     * @param generation   clears this instance has seen for the voucher
     * @param trustedUntil {@code nanoTime} after which a sold-out flag is re-checked
     */
    private record Flag(long generation, boolean soldOut, long trustedUntil) {
    }

    private static final Flag NEVER_FLAGGED = new Flag(0, false, 0);

    private final ConcurrentHashMap<Long, Flag> flags = new ConcurrentHashMap<>();
    private final long recheckNanos;
    private final LongSupplier nanoTime;
    private final LongPredicate counterSaysSoldOut;
    private final Consumer<String> publish;

    @Autowired
    SoldOutFlags(StockSettings settings, StockCache stock, RedissonClient redisson, RedisDatabase database) {
        this(settings.soldOutRecheck(), System::nanoTime, stock::isSoldOut,
                redisson.getTopic(database.channel(TOPIC), StringCodec.INSTANCE));
    }

    private SoldOutFlags(Duration recheck, LongSupplier nanoTime, LongPredicate counterSaysSoldOut, RTopic topic) {
        this(recheck, nanoTime, counterSaysSoldOut, topic::publish);
        topic.addListener(String.class, (channel, message) -> received(message));
    }

    /**
     * @param counterSaysSoldOut the re-check: true when the voucher's counter exists and is at zero
     * @param publish            sends a message to every instance (this one included)
     */
    SoldOutFlags(Duration recheck, LongSupplier nanoTime, LongPredicate counterSaysSoldOut, Consumer<String> publish) {
        this.recheckNanos = recheck.toNanos();
        this.nanoTime = nanoTime;
        this.counterSaysSoldOut = counterSaysSoldOut;
        this.publish = publish;
    }

    /**
     * Whether a request may go on to Redis. Returns {@link #SOLD_OUT} to refuse it, or the voucher's
     * generation, which a sold-out answer to this request hands back to {@link #markSoldOut}. Costs no
     * Redis call, except for the one request per interval that re-checks an expired flag.
     */
    public long admit(long voucherId) {
        Flag flag = flags.getOrDefault(voucherId, NEVER_FLAGGED);
        if (!flag.soldOut()) {
            return flag.generation();
        }
        long now = nanoTime.getAsLong();
        if (now - flag.trustedUntil() < 0) {
            return SOLD_OUT;
        }
        // Expired: this request alone re-checks; the flag is trusted one more interval meanwhile.
        if (!flags.replace(voucherId, flag, new Flag(flag.generation(), true, now + recheckNanos))) {
            Flag changed = flags.get(voucherId); // another request re-checks, or a clear just came in
            return changed.soldOut() ? SOLD_OUT : changed.generation();
        }
        if (counterSaysSoldOut.test(voucherId)) {
            return SOLD_OUT;
        }
        // Units are back: a clear this instance missed, or a stale flag. Earlier sold-out answers are stale too.
        return drop(voucherId);
    }

    /**
     * The purchase script answered sold out to a request admitted with {@code generation}. Ignored when the
     * voucher was cleared since (the answer predates the units that came back); otherwise the flag is set
     * (or renewed) here and, when it is new, on every instance.
     */
    public void markSoldOut(long voucherId, long generation) {
        while (true) {
            Flag flag = flags.get(voucherId);
            Flag current = flag == null ? NEVER_FLAGGED : flag;
            if (current.generation() != generation) {
                return;
            }
            Flag raised = new Flag(generation, true, nanoTime.getAsLong() + recheckNanos);
            if (flag == null ? flags.putIfAbsent(voucherId, raised) == null : flags.replace(voucherId, flag, raised)) {
                if (!current.soldOut()) {
                    publish.accept("+" + voucherId);
                }
                return;
            }
        }
    }

    /** Stock came back (a reset, an order given up, a reconcile): every instance sells again. */
    public void clear(long voucherId) {
        drop(voucherId);
        publish.accept("-" + voucherId);
    }

    @EventListener
    void stockChanged(StockCounterWritten event) {
        clear(event.voucherId());
    }

    @EventListener
    void unitsBack(UnitsBack event) {
        clear(event.voucherId());
    }

    /** A message from an instance (this one included): "+id" sold out, "-id" stock back. */
    void received(String message) {
        long voucherId = Long.parseLong(message.substring(1));
        if (message.charAt(0) == '-') {
            drop(voucherId);
            return;
        }
        // Another instance's sold-out answer: trusted for an interval from now, like one of our own. A stale
        // one (its request began before a clear) is not told apart here: the re-check heals it.
        long trustedUntil = nanoTime.getAsLong() + recheckNanos;
        flags.compute(voucherId, (id, flag) -> {
            Flag current = flag == null ? NEVER_FLAGGED : flag;
            return current.soldOut() ? current : new Flag(current.generation(), true, trustedUntil);
        });
    }

    /** Not sold out any more, and a new generation: sold-out answers to requests admitted before are stale. */
    private long drop(long voucherId) {
        return flags.compute(voucherId, (id, flag) ->
                new Flag((flag == null ? 0 : flag.generation()) + 1, false, 0)).generation();
    }
}
