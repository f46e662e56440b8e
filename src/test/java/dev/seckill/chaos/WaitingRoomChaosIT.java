package dev.seckill.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.seckill.support.Api;
import dev.seckill.support.Tokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos scenario 14: a full waiting room while an instance and then Redis are killed. Two packaged instances behind
 * the repository's Nginx rules, on a Redis with AOF ({@code appendfsync always}); a crowd joins in the arrival window,
 * then every page polls its place and buys the moment it is let in, as the buy page does, retrying what fails. While
 * they do, instance 1 is killed (-9), then Redis is killed (-9) and started again, then instance 1 comes back.
 * Counted from the pages' side: nobody loses their place or sees it move, nobody is let in twice (one admission each),
 * nobody behind a shopper still waiting buys, and the sale's audit holds (nothing oversold, one order per shopper).
 */
@RunByScriptsChaos
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WaitingRoomChaosIT {

    static final int CROWD = 120;
    static final int STOCK = 30;
    static final int PER_SECOND = 4;
    static final Duration ARRIVAL_WINDOW = Duration.ofSeconds(6);

    static ChaosCluster cluster;
    static Api api;

    @BeforeAll
    static void start() throws Exception {
        cluster = ChaosCluster.named("room", "seckill_chaos_room").args("--seckill.room.batch-interval=1s",
                "--seckill.rate-limit.room-polls.permits=1000", "--seckill.rate-limit.tickets.permits=1000").start();
        api = cluster.api();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** What one page saw. */
    record Seen(Set<Long> places, Set<String> admissions, AtomicInteger lost, AtomicInteger transientFailures) {

        static Seen fresh() {
            return new Seen(ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet(), new AtomicInteger(),
                    new AtomicInteger());
        }
    }

    @Test
    void placesAndAdmissionsSurviveAnInstanceAndRedisKilledWhileTheRoomIsFull() throws Exception {
        List<String> tokens = api.mintShoppers(CROWD);
        Instant opening = Instant.now().plusSeconds(5);
        long voucher = api.asAdmin("POST", "/admin/vouchers", """
                {"title":"Room under faults","price":9.90,"stock":%d,"beginTime":"%s","endTime":"%s",
                 "arrivalWindow":"%s","admissionsPerSecond":%d}""".formatted(STOCK, opening, opening.plusSeconds(3_600),
                ARRIVAL_WINDOW, PER_SECOND)).expectStatus(201).json().path("id").asLong();
        sleepUntil(opening);
        ExecutorService pages = Executors.newFixedThreadPool(CROWD);
        List<Future<?>> joins = new ArrayList<>();
        for (String token : tokens) {
            joins.add(pages.submit(() -> api.post("/seckill/" + voucher + "/room", null, auth(token)).expectStatus(200)));
        }
        for (Future<?> join : joins) {
            join.get(60, TimeUnit.SECONDS);
        }
        sleepUntil(opening.plus(ARRIVAL_WINDOW));

        Map<Long, Seen> seen = new ConcurrentHashMap<>();
        Map<Long, Long> boughtPlace = new ConcurrentHashMap<>();
        List<Future<?>> polling = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (String token : tokens) {
            long shopper = Tokens.shopperId(token);
            Seen mine = seen.computeIfAbsent(shopper, id -> Seen.fresh());
            polling.add(pages.submit(() -> {
                while (System.nanoTime() < until) {
                    Api.Response answer;
                    try {
                        answer = api.get("/seckill/" + voucher + "/room/place", auth(token));
                    } catch (IllegalStateException noAnswer) {
                        mine.transientFailures().incrementAndGet();
                        Thread.sleep(300);
                        continue;
                    }
                    if (answer.status() != 200) {
                        if ("not-in-waiting-room".equals(answer.code())) {
                            mine.lost().incrementAndGet();
                        } else {
                            mine.transientFailures().incrementAndGet();
                        }
                        Thread.sleep(300);
                        continue;
                    }
                    JsonNode place = answer.json();
                    mine.places().add(place.path("place").asLong());
                    String state = place.path("state").asString();
                    if (state.equals("sold-out")) {
                        return null;
                    }
                    if (state.equals("admitted") || state.equals("admission-used")) {
                        // Used: a purchase of ours took the unit and its answer was lost; the same key gets the order.
                        String ticket = place.path("ticket").asString("");
                        if (!ticket.isEmpty()) {
                            mine.admissions().add(ticket);
                        }
                        try {
                            Api.Response bought = ticket.isEmpty()
                                    ? api.post("/seckill/" + voucher, null, "Authorization", "Bearer " + token,
                                            "Idempotency-Key", "room-" + shopper)
                                    : api.post("/seckill/" + voucher, null, "Authorization", "Bearer " + token,
                                            "Seckill-Ticket", ticket, "Idempotency-Key", "room-" + shopper);
                            if (bought.status() == 202 || bought.status() == 201) {
                                boughtPlace.put(shopper, place.path("place").asLong());
                                return null;
                            }
                        } catch (IllegalStateException noAnswer) {
                            mine.transientFailures().incrementAndGet();
                        }
                    }
                    Thread.sleep(200);
                }
                return null;
            }));
        }

        // The faults, while the room lets its places in (about 8 s to sell out at 4 a second with nothing failing).
        Thread.sleep(1_500);
        System.out.println("[chaos] instance 1 killed (-9)");
        cluster.instance(1).kill();
        Thread.sleep(1_500);
        System.out.println("[chaos] Redis killed (-9), started again");
        cluster.redis().kill();
        Thread.sleep(1_000);
        cluster.redis().restart();
        System.out.println("[chaos] instance 1 started again");
        cluster.restart(1);
        for (Future<?> page : polling) {
            page.get(120, TimeUnit.SECONDS);
        }
        pages.shutdown();

        JsonNode audit = api.awaitNoPendingOrders(voucher, Duration.ofSeconds(60));
        long neverLetIn = seen.entrySet().stream().filter(entry -> entry.getValue().admissions().isEmpty()
                && !boughtPlace.containsKey(entry.getKey())).mapToLong(entry -> entry.getValue().places().iterator().next())
                .min().orElse(Long.MAX_VALUE);
        long lastBought = boughtPlace.values().stream().mapToLong(Long::longValue).max().orElse(0);
        int failures = seen.values().stream().mapToInt(page -> page.transientFailures().get()).sum();
        System.out.printf("[chaos] | 14. a full waiting room, an instance and Redis killed | %d in the room | %d bought "
                + "| last place bought %d | first place never let in %d | %d failed polls retried | consistent %s |%n",
                CROWD, boughtPlace.size(), lastBought, neverLetIn, failures, audit.path("consistent").asBoolean());

        assertThat(seen.values()).as("nobody lost their place").allSatisfy(page -> assertThat(page.lost()).hasValue(0));
        assertThat(seen.values()).as("nobody's place moved").allSatisfy(page -> assertThat(page.places()).hasSize(1));
        assertThat(seen.values()).as("one admission each, at most")
                .allSatisfy(page -> assertThat(page.admissions()).hasSizeLessThanOrEqualTo(1));
        assertThat(boughtPlace).as("every unit sold").hasSize(STOCK);
        assertThat(lastBought).as("nobody behind a shopper never let in bought").isLessThan(neverLetIn);
        assertThat(audit.path("orders").asLong()).isEqualTo(STOCK);
        assertThat(audit.path("oversold").asLong()).isZero();
        assertThat(audit.path("duplicateBuyers").asLong()).isZero();
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    private static String[] auth(String token) {
        return new String[] {"Authorization", "Bearer " + token};
    }

    private static void sleepUntil(Instant moment) throws InterruptedException {
        long millis = Duration.between(Instant.now(), moment).toMillis();
        if (millis > 0) {
            Thread.sleep(millis + 50);
        }
    }
}
