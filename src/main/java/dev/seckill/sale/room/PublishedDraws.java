package dev.seckill.sale.room;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The drawn lotteries this instance has published, as they are sent: the JSON once, gzipped once, and an ETag. A draw
 * is final (a join after it queues behind it), so it is read from Redis once per instance however many ask at the
 * moment of the draw, and encoded once however many download it. Bounded by entrants, the least recently asked
 * leaving first: a 20,000-entrant draw is about 420 KB of JSON, and every instance keeps what it published.
 */
@Component
class PublishedDraws {

    /** About 10 MB of JSON and less again gzipped, on an instance's heap of 512 MB. */
    static final long MAX_ENTRANTS = 500_000;

    /** A draw as sent. The ETag is weak: the gzipped and the plain bodies are the same draw. */
    record PublishedDraw(RoomDraw draw, byte[] json, byte[] gzipped, String etag) {
    }

    private final JsonMapper mapper;
    private final Cache<Long, PublishedDraw> cache;

    @Autowired
    PublishedDraws(JsonMapper mapper) {
        this(mapper, MAX_ENTRANTS);
    }

    private PublishedDraws(JsonMapper mapper, long maxEntrants) {
        this.mapper = mapper;
        this.cache = Caffeine.newBuilder().maximumWeight(maxEntrants)
                .weigher((Long voucherId, PublishedDraw published) -> published.draw().entrants().size() + 1)
                .build();
    }

    /** A cache of at most {@code maxEntrants} entrants in all. */
    static PublishedDraws bounded(JsonMapper mapper, long maxEntrants) {
        return new PublishedDraws(mapper, maxEntrants);
    }

    /** The voucher's draw as published, {@code drawn} asked only the first time (it may throw: nothing is kept). */
    PublishedDraw get(long voucherId, Supplier<RoomDraw> drawn) {
        return cache.get(voucherId, id -> encode(drawn.get()));
    }

    /** A fresh sale: its room draws again from what Redis has. */
    void forget(long voucherId) {
        cache.invalidate(voucherId);
    }

    /** How many draws are kept now, after evictions due. */
    long size() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    private PublishedDraw encode(RoomDraw draw) {
        byte[] json = mapper.writeValueAsBytes(draw);
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream(json.length / 2 + 64);
        try (GZIPOutputStream gzip = new GZIPOutputStream(gzipped)) {
            gzip.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PublishedDraw(draw, json, gzipped.toByteArray(), "W/\"" + sha256(json).substring(0, 32) + "\"");
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
