package dev.seckill.support;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A burst from outside, counted from the client's side: every shopper sends one purchase, spread evenly
 * over {@code duration} by {@code threads} clients, while a fault is injected at a fixed moment. Each
 * shopper ends in one of three sets: told they have an order (202, 201 on the sync path, or 409
 * {@code already-ordered} to a shopper who asked once: a first answer lost on the way and the same request
 * retried underneath),
 * refused (an answer that says no order was taken), or unknown (no answer, or a 502/504 from Nginx: the
 * instance may have taken the order before it went silent; or 503 {@code order-unconfirmed}: the order was
 * taken, but not as many replicas as asked confirmed it, so a failover may still lose it, or Redis never answered
 * whether it was taken). The
 * {@code order-unconfirmed} shoppers are also kept apart ({@link Result#unconfirmed}), to be reported. Only the
 * client's own record is trusted: the platform's promise is about what it told people.
 */
public final class PacedBurst {

    public record Fault(Duration at, String name, ThrowingRunnable action) {
    }

    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    /**
     * One answer as the client saw it: {@code answer} as in {@link Result#answers}, the instance that gave it
     * ({@code X-Instance-Id}; null without one), when its request left and when it arrived
     * ({@code System.nanoTime()}).
     */
    public record Answer(long shopper, String answer, String instanceId, long sentAtNanos, long atNanos) {
    }

    /**
     * {@code unconfirmed}: the shoppers answered 503 {@code order-unconfirmed} (also in {@code unknown});
     * {@code timeline}: every answer, in the order they arrived.
     */
    public record Result(Set<Long> accepted, Set<Long> unknown, Set<Long> unconfirmed, Map<String, Integer> answers,
            List<Answer> timeline) {

        public int count(String answer) {
            return answers.getOrDefault(answer, 0);
        }
    }

    private static final long NOT_ENDED = Long.MIN_VALUE;

    private PacedBurst() {
    }

    public static Result run(int port, long voucherId, List<String> tokens, Duration duration, int threads,
            List<Fault> faults) throws Exception {
        return run(port, voucherId, tokens, duration, threads, faults, null);
    }

    /**
     * A burst that lasts as long as its faults, not a fixed time: paced as {@link #run} paces it, it ends
     * {@code tail} after the last fault's action returned (at once if one throws), and the shoppers due
     * after that send nothing. For faults that wait for the sale's state: on a loaded machine what they wait
     * for can come long after a fixed burst would have ended, with nobody left to buy. {@code tokens} and
     * {@code duration} bound it: if the shoppers run out first, the burst ends with them (and says so).
     */
    public static Result runUntilFaultsDone(int port, long voucherId, List<String> tokens, Duration duration,
            int threads, List<Fault> faults, Duration tail) throws Exception {
        return run(port, voucherId, tokens, duration, threads, faults, tail);
    }

    /** @param tail null: every shopper sends, whenever the faults are done */
    private static Result run(int port, long voucherId, List<String> tokens, Duration duration, int threads,
            List<Fault> faults, Duration tail) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        Api api = new Api(port, http);
        Set<Long> accepted = ConcurrentHashMap.newKeySet();
        Set<Long> unknown = ConcurrentHashMap.newKeySet();
        Set<Long> unconfirmed = ConcurrentHashMap.newKeySet();
        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        Queue<Answer> timeline = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        long gapNanos = duration.toNanos() / Math.max(1, tokens.size());
        // When the shoppers due after it stop sending (nanoTime); NOT_ENDED until the faults are done.
        AtomicLong endsAt = new AtomicLong(NOT_ENDED);
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            String token = tokens.get(i);
            long dueAt = start + i * gapNanos;
            sent.add(clients.submit(() -> {
                if (endedBefore(dueAt, endsAt)) {
                    return null;
                }
                waitUntil(dueAt);
                if (endedBefore(dueAt, endsAt)) {
                    return null;
                }
                long shopper = Tokens.shopperId(token);
                String answer;
                String instance = null;
                long sentAt = System.nanoTime();
                try {
                    Api.Response response = api.seckill(voucherId, token);
                    instance = response.instanceId();
                    answer = response.status() + " " + (response.status() == 202 ? "accepted"
                            : response.status() == 201 ? "created" : response.code());
                    if (response.status() == 202 || response.status() == 201
                            || "already-ordered".equals(response.code())) {
                        accepted.add(shopper);
                    } else if (response.status() == 502 || response.status() == 504) {
                        unknown.add(shopper);
                    } else if ("order-unconfirmed".equals(response.code())) {
                        unknown.add(shopper);
                        unconfirmed.add(shopper);
                    }
                } catch (IllegalStateException noAnswer) {
                    answer = "no answer";
                    unknown.add(shopper);
                }
                answers.computeIfAbsent(answer, k -> new AtomicInteger()).incrementAndGet();
                timeline.add(new Answer(shopper, answer, instance, sentAt, System.nanoTime()));
                return null;
            }));
        }
        ExecutorService injector = Executors.newSingleThreadExecutor();
        Future<?> injected = injector.submit(() -> {
            boolean done = false;
            try {
                for (Fault fault : faults) {
                    waitUntil(start + fault.at().toNanos());
                    System.out.printf("[burst] %.1f s: %s%n", (System.nanoTime() - start) / 1e9, fault.name());
                    fault.action().run();
                }
                done = true;
            } finally {
                if (tail != null) {
                    long end = System.nanoTime() + (done ? tail.toNanos() : 0);
                    endsAt.set(end);
                    long lastDue = start + (tokens.size() - 1) * gapNanos;
                    if (end - lastDue > 0) {
                        System.out.printf("[burst] the shoppers ran out at %.1f s, before the faults were done "
                                + "and the burst's tail after them: more shoppers needed%n", (lastDue - start) / 1e9);
                    }
                }
            }
            return null;
        });
        for (Future<?> request : sent) {
            request.get(2, TimeUnit.MINUTES);
        }
        injected.get(2, TimeUnit.MINUTES);
        clients.shutdown();
        injector.shutdown();
        Map<String, Integer> counted = new TreeMap<>();
        answers.forEach((answer, n) -> counted.put(answer, n.get()));
        System.out.printf("[burst] %d shoppers in %.1f s: %s%n", timeline.size(), (System.nanoTime() - start) / 1e9, counted);
        List<Answer> inOrder = new ArrayList<>(timeline);
        inOrder.sort(Comparator.comparingLong(Answer::atNanos));
        return new Result(Set.copyOf(accepted), Set.copyOf(unknown), Set.copyOf(unconfirmed), counted, List.copyOf(inOrder));
    }

    /** Whether the burst ends before {@code dueAt}: then that shopper sends nothing, and waits for nothing. */
    private static boolean endedBefore(long dueAt, AtomicLong endsAt) {
        long end = endsAt.get();
        return end != NOT_ENDED && dueAt - end > 0;
    }

    /** Pacing, not polling: each request leaves at its own moment of the burst. */
    private static void waitUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
