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

    private PacedBurst() {
    }

    public static Result run(int port, long voucherId, List<String> tokens, Duration duration, int threads,
            List<Fault> faults) throws Exception {
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
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            String token = tokens.get(i);
            long dueAt = start + i * gapNanos;
            sent.add(clients.submit(() -> {
                waitUntil(dueAt);
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
            for (Fault fault : faults) {
                waitUntil(start + fault.at().toNanos());
                System.out.printf("[burst] %.1f s: %s%n", (System.nanoTime() - start) / 1e9, fault.name());
                fault.action().run();
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
        System.out.printf("[burst] %d shoppers in %.1f s: %s%n", tokens.size(), (System.nanoTime() - start) / 1e9, counted);
        List<Answer> inOrder = new ArrayList<>(timeline);
        inOrder.sort(Comparator.comparingLong(Answer::atNanos));
        return new Result(Set.copyOf(accepted), Set.copyOf(unknown), Set.copyOf(unconfirmed), counted, List.copyOf(inOrder));
    }

    /** Pacing, not polling: each request leaves at its own moment of the burst. */
    private static void waitUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
