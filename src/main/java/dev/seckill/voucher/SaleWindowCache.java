package dev.seckill.voucher;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import dev.seckill.refusal.Reason;
import dev.seckill.salestate.RedisDatabase;
import dev.seckill.refusal.Refusal;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Every voucher's sale window, in memory, so the seckill path never reads MySQL to validate a request
 * and a flood of made-up voucher ids never reaches it. A window never changes after creation.
 * <p>
 * Voucher ids grow ({@code AUTO_INCREMENT}) and are never deleted, so after a load of "every id above N"
 * an unknown id at or below the highest loaded one is certainly not a voucher: it is refused with no
 * query. Only an id above it can be a voucher created since; for those the instance loads what is new,
 * at most once per {@link #REFRESH_GAP_MILLIS}, however many such ids arrive. A voucher created on another
 * instance usually arrives sooner, through Redis pub/sub. The gap is timed by the monotonic clock: with the
 * wall clock, an instance whose clock stepped back a minute would load nothing new for that minute.
 */
@Component
public class SaleWindowCache {

    private static final Logger log = LoggerFactory.getLogger(SaleWindowCache.class);

    static final long REFRESH_GAP_MILLIS = 1_000;
    /** Pub/sub ignores Redis database numbers: the topic carries it, so apps on different databases never mix. */
    static final String TOPIC = "seckill:vouchers:db";

    private final SaleWindowSource source;
    private final LongSupplier nanoTicker;
    private final Consumer<String> announce;
    private final Map<Long, SaleWindow> known = new ConcurrentHashMap<>();
    /** Every voucher with an id up to this one is in {@link #known}. */
    private volatile long loadedUpTo;
    /** By {@link #nanoTicker}. */
    private long nextLoadAt;

    @Autowired
    SaleWindowCache(SaleWindowSource source, RedissonClient redisson, RedisDatabase database) {
        this(source, System::nanoTime, redisson.getTopic(database.channel(TOPIC), StringCodec.INSTANCE));
    }

    private SaleWindowCache(SaleWindowSource source, LongSupplier nanoTicker, RTopic topic) {
        this(source, nanoTicker, topic::publish);
        topic.addListener(String.class, (channel, message) -> created(message));
    }

    /** {@code announce} tells the other instances of a voucher created here ({@link #created} on each). */
    SaleWindowCache(SaleWindowSource source, LongSupplier nanoTicker, Consumer<String> announce) {
        this.source = source;
        this.nanoTicker = nanoTicker;
        this.announce = announce;
        this.nextLoadAt = nanoTicker.getAsLong();
    }

    /** The voucher's window; refused as voucher-not-found when there is no such voucher. */
    public SaleWindow require(long voucherId) {
        SaleWindow window = lookUp(voucherId);
        if (window == null) {
            throw new Refusal(Reason.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId);
        }
        return window;
    }

    /** The voucher's window, or empty when there is no such voucher (for background work, which refuses nobody). */
    public Optional<SaleWindow> find(long voucherId) {
        return Optional.ofNullable(lookUp(voucherId));
    }

    private SaleWindow lookUp(long voucherId) {
        SaleWindow window = known.get(voucherId);
        if (window == null && voucherId > loadedUpTo) {
            loadNew();
            window = known.get(voucherId);
        }
        return window;
    }

    /** A voucher this instance created: known here at once, and on the others through pub/sub. */
    void remember(long voucherId, SaleWindow window) {
        known.put(voucherId, window);
        // id,begin,end,difficulty,payment window in ms[,arrival window in ms,admissions per second,room seed]: an empty
        // field for a value the voucher does not have, the last three only with a waiting room. Older builds send
        // id,begin,end[,difficulty]; they take an empty difficulty for a malformed message and read the voucher
        // from MySQL instead. The seed travels on Redis's pub/sub, which only the instances reach.
        WaitingRoom room = window.room();
        announce.accept(voucherId + "," + window.begin().toEpochMilli() + "," + window.end().toEpochMilli()
                + "," + (window.challengeDifficulty() == null ? "" : window.challengeDifficulty())
                + "," + (window.paymentWindow() == null ? "" : window.paymentWindow().toMillis())
                + (room == null ? "" : "," + room.arrivalWindow().toMillis() + "," + room.admissionsPerSecond()
                        + "," + room.seed()));
    }

    private synchronized void loadNew() {
        long now = nanoTicker.getAsLong();
        if (now - nextLoadAt < 0) {
            return;
        }
        nextLoadAt = now + TimeUnit.MILLISECONDS.toNanos(REFRESH_GAP_MILLIS);
        long after = loadedUpTo;
        Map<Long, SaleWindow> loaded = source.loadAfter(after);
        known.putAll(loaded);
        loadedUpTo = loaded.keySet().stream().mapToLong(Long::longValue).max().orElse(after);
    }

    void created(String message) {
        // -1: an empty last field is a field
        String[] fields = message.split(",", -1);
        try {
            known.put(Long.parseLong(fields[0]), new SaleWindow(Instant.ofEpochMilli(Long.parseLong(fields[1])),
                    Instant.ofEpochMilli(Long.parseLong(fields[2])), fields.length > 3 ? difficulty(fields[3]) : null,
                    fields.length > 4 ? paymentWindow(fields[4]) : null, fields.length > 5 ? room(fields) : null));
        } catch (RuntimeException malformed) {
            // Not learnt here: the voucher is read from MySQL when it is first asked for, as if no message had come.
            // Not the message: it carries a waiting room's seed, secret until the draw.
            log.warn("Ignored a malformed announcement of voucher {}: {}", fields[0], malformed.getClass().getSimpleName());
        }
    }

    /** A difficulty from another instance; one that is no difficulty leaves the voucher to be read from MySQL's. */
    private static Integer difficulty(String field) {
        if (field.isEmpty()) {
            return null;
        }
        try {
            int difficulty = Integer.parseInt(field);
            if (difficulty >= 0) {
                return difficulty;
            }
        } catch (NumberFormatException notANumber) {
            // fall through
        }
        throw new IllegalArgumentException("not a challenge difficulty: " + field);
    }

    /** A waiting room from another instance: arrival window in ms, admissions per second, seed. */
    private static WaitingRoom room(String[] fields) {
        if (fields.length != 8) {
            throw new IllegalArgumentException("a waiting room has three fields");
        }
        return new WaitingRoom(Duration.ofMillis(Long.parseLong(fields[5])), Integer.parseInt(fields[6]), fields[7]);
    }

    /** A payment window from another instance, in milliseconds; empty: the voucher has none of its own. */
    private static Duration paymentWindow(String field) {
        if (field.isEmpty()) {
            return null;
        }
        long millis = Long.parseLong(field);
        if (millis <= 0) {
            throw new IllegalArgumentException("not a payment window: " + field);
        }
        return Duration.ofMillis(millis);
    }
}
