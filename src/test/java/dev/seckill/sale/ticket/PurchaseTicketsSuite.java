package dev.seckill.sale.ticket;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import dev.seckill.support.Api;
import dev.seckill.support.Handshake;
import dev.seckill.support.NginxFrontedTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code seckill.tickets.required}: a purchase takes a unit only with its shopper's live ticket for that
 * voucher, spent by the taking; a ticket needs a solved challenge, each solution accepted once. Through Nginx,
 * counted from the client's side and in the audit. Run in each mode (the purchase script is shared, its callers
 * are not).
 */
@TestPropertySource(properties = {"seckill.tickets.required=true", "seckill.tickets.challenge-difficulty=" + PurchaseTicketsSuite.DIFFICULTY,
        // The concurrency tests fire one shopper's requests together: room for them, and a limit still in reach.
        "seckill.rate-limit.tickets.permits=" + PurchaseTicketsSuite.TICKETS_PER_MINUTE, "seckill.rate-limit.tickets.per=1m",
        "seckill.rate-limit.orders.permits=1000"})
abstract class PurchaseTicketsSuite extends NginxFrontedTest {

    /** The vouchers' default difficulty here: real work, a few milliseconds of it, for a suite that solves dozens. */
    static final int DIFFICULTY = 2_000;
    static final int TICKETS_PER_MINUTE = 30;

    Api edge;

    @BeforeEach
    void throughNginx() {
        edge = new Api(nginx.port());
    }

    @Test
    void beforeTheSaleOpensAChallengeIsGivenButNoTicket() {
        long voucher = edge.createVoucher(5, Instant.now().plusSeconds(120), Instant.now().plusSeconds(3_600));
        String token = edge.mintShoppers(1).get(0);

        String solution = Handshake.solve(Handshake.challenge(edge, voucher, token));
        Api.Response early = Handshake.ticket(edge, voucher, token, solution).expectProblem(409, "sale-not-started");

        // 120 s less the time this test took so far; a loaded machine takes seconds.
        assertThat(early.json().path("detail").asString()).containsPattern("in (1[01][0-9]|120|[6-9][0-9]) s");
    }

    @Test
    void aPurchaseWithoutAValidTicketIsRefusedAndTakesNothing() {
        long voucher = edge.createVoucher(5);
        String token = edge.mintShoppers(1).get(0);

        edge.seckill(voucher, token).expectProblem(403, "ticket-required");
        Handshake.buy(edge, voucher, token, "made-up-ticket-000000000").expectProblem(403, "ticket-invalid");
        Handshake.buy(edge, voucher, token, "{not a ticket}").expectProblem(403, "ticket-invalid");

        JsonNode audit = edge.audit(voucher);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(5);
        assertThat(audit.path("orders").asLong()).isZero();
    }

    @Test
    void aTicketBuysOnlyForItsShopperAndVoucherAndOnlyOnce() {
        long voucher = edge.createVoucher(5);
        long other = edge.createVoucher(5);
        List<String> shoppers = edge.mintShoppers(2);
        String alice = shoppers.get(0);
        String bob = shoppers.get(1);
        String ticket = Handshake.ticketFor(edge, voucher, alice);

        Handshake.buy(edge, voucher, bob, ticket).expectProblem(403, "ticket-invalid");
        Handshake.buy(edge, other, alice, ticket).expectProblem(403, "ticket-invalid");
        String orderId = Handshake.buy(edge, voucher, alice, ticket).expectStatus(201, 202).json().path("orderId").asString();
        // Spent: the same ticket again is answered with her order (no ticket is asked of a buyer), never a second unit.
        Handshake.buy(edge, voucher, alice, ticket).expectProblem(409, "already-ordered");
        // Bob's own ticket still buys.
        Handshake.buy(edge, voucher, bob, Handshake.ticketFor(edge, voucher, bob)).expectStatus(201, 202);

        JsonNode audit = edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).isEqualTo(2);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(3);
        assertThat(orderId).isNotBlank();
        assertThat(edge.audit(other).path("redisStock").asLong()).isEqualTo(5);
    }

    @Test
    void aRetryWithAnIdempotencyKeyGetsTheBuyersOrderWithoutATicketAndNothingElse() {
        long voucher = edge.createVoucher(5);
        List<String> shoppers = edge.mintShoppers(2);
        String orderId = Handshake.buy(edge, voucher, shoppers.get(0), Handshake.ticketFor(edge, voucher, shoppers.get(0)))
                .expectStatus(201, 202).json().path("orderId").asString();

        Api.Response retry = edge.post("/seckill/" + voucher, null, "Authorization", "Bearer " + shoppers.get(0),
                "Idempotency-Key", "lost-answer-1").expectStatus(201, 202);
        assertThat(retry.json().path("orderId").asString()).isEqualTo(orderId);
        edge.post("/seckill/" + voucher, null, "Authorization", "Bearer " + shoppers.get(1),
                "Idempotency-Key", "no-ticket-1").expectProblem(403, "ticket-required");

        assertThat(edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(30)).path("orders").asLong()).isEqualTo(1);
        assertThat(edge.audit(voucher).path("redisStock").asLong()).isEqualTo(4);
    }

    @Test
    void aSolutionSentManyTimesAtOnceGetsOneTicket() throws Exception {
        long voucher = edge.createVoucher(5);
        String token = edge.mintShoppers(1).get(0);
        String solution = Handshake.solve(Handshake.challenge(edge, voucher, token));

        List<Api.Response> answers = together(20, i -> () -> Handshake.ticket(edge, voucher, token, solution));

        assertThat(answers).filteredOn(a -> a.status() == 200).hasSize(1);
        answers.stream().filter(a -> a.status() != 200).forEach(a -> a.expectProblem(409, "challenge-spent"));
    }

    @Test
    void manyShoppersFiringTheirTicketsManyTimesAtOnceTakeOneUnitEach() throws Exception {
        int shoppers = 30;
        int clicks = 4;
        long voucher = edge.createVoucher(shoppers + 10);
        List<String> tokens = edge.mintShoppers(shoppers);
        List<String> tickets = tokens.stream().map(token -> Handshake.ticketFor(edge, voucher, token)).toList();

        List<Api.Response> answers = together(shoppers * clicks,
                i -> () -> Handshake.buy(edge, voucher, tokens.get(i % shoppers), tickets.get(i % shoppers)));

        assertThat(answers).filteredOn(a -> a.status() == 201 || a.status() == 202).hasSize(shoppers);
        answers.stream().filter(a -> a.status() != 201 && a.status() != 202).forEach(a ->
                assertThat(a.code()).as(a.body()).isIn("already-ordered", "ticket-invalid", "request-in-flight"));
        JsonNode audit = edge.awaitNoPendingOrders(voucher, Duration.ofSeconds(60));
        assertThat(audit.path("orders").asLong()).isEqualTo(shoppers);
        assertThat(audit.path("redisStock").asLong()).isEqualTo(10);
    }

    @Test
    void aShoppersTicketsAndChallengesAreLimitedAcrossRequests() {
        long voucher = edge.createVoucher(5);
        String token = edge.mintShoppers(1).get(0);
        String solution = Handshake.solve(Handshake.challenge(edge, voucher, token));

        // Limits are checked before the solution: a spent one still counts, a refused request spends nothing.
        List<Api.Response> tickets = IntStream.range(0, TICKETS_PER_MINUTE + 5)
                .mapToObj(i -> Handshake.ticket(edge, voucher, token, solution)).toList();
        assertThat(tickets).filteredOn(a -> a.status() == 429).isNotEmpty()
                .allSatisfy(a -> a.expectProblem(429, "rate-limited"));
        // The shared limit, plus the one request an instance lets through uncounted (LocalLimitGate).
        assertThat(tickets).filteredOn(a -> a.status() != 429).hasSizeBetween(TICKETS_PER_MINUTE, TICKETS_PER_MINUTE + 1);

        List<Api.Response> challenges = IntStream.range(0, 15).mapToObj(i -> edge.get("/seckill/" + voucher + "/challenge",
                "Authorization", "Bearer " + token)).toList();
        assertThat(challenges).filteredOn(a -> a.status() == 200).as("10 a minute (one asked above), plus one uncounted").hasSizeBetween(9, 11);
        challenges.stream().filter(a -> a.status() != 200).forEach(a -> a.expectProblem(429, "rate-limited"));
    }

    @Test
    void aSolutionIsRefusedForAnotherShopperOrVoucherOrWhenTamperedWith() {
        long voucher = edge.createVoucher(5);
        long other = edge.createVoucher(5);
        List<String> shoppers = edge.mintShoppers(2);
        String solution = Handshake.solve(Handshake.challenge(edge, voucher, shoppers.get(0)));

        Handshake.ticket(edge, voucher, shoppers.get(1), solution).expectProblem(403, "challenge-invalid");
        Handshake.ticket(edge, other, shoppers.get(0), solution).expectProblem(403, "challenge-invalid");
        Handshake.ticket(edge, voucher, shoppers.get(0), "bm90IGpzb24=").expectProblem(403, "challenge-invalid");
        Handshake.ticket(edge, voucher, shoppers.get(0), "%%% not base64").expectProblem(403, "challenge-invalid");
        Handshake.ticket(edge, voucher, shoppers.get(0), null).expectProblem(403, "challenge-required");
        // None of those spent it.
        Handshake.ticket(edge, voucher, shoppers.get(0), solution).expectStatus(200);
    }

    @Test
    void aVoucherWithoutAChallengeGivesTicketsForNoWork() {
        Instant now = Instant.now();
        Api.Response created = edge.asAdmin("POST", "/admin/vouchers", """
                {"title":"No challenge","price":1.00,"stock":3,"beginTime":"%s","endTime":"%s","challengeDifficulty":0}"""
                .formatted(now.minusSeconds(60), now.plusSeconds(3_600))).expectStatus(201);
        long voucher = created.json().path("id").asLong();
        assertThat(created.json().path("challengeDifficulty").asInt()).isZero();
        String token = edge.mintShoppers(1).get(0);

        String ticket = Handshake.ticket(edge, voucher, token, null).expectStatus(200).json().path("ticket").asString();

        Handshake.buy(edge, voucher, token, ticket).expectStatus(201, 202);
    }

    @Test
    void theChallengeCarriesTheVouchersDifficulty() {
        Instant now = Instant.now();
        long voucher = edge.asAdmin("POST", "/admin/vouchers", """
                {"title":"Hard","price":1.00,"stock":3,"beginTime":"%s","endTime":"%s","challengeDifficulty":1234}"""
                .formatted(now.minusSeconds(60), now.plusSeconds(3_600))).expectStatus(201).json().path("id").asLong();
        String token = edge.mintShoppers(1).get(0);

        assertThat(Handshake.challenge(edge, voucher, token).path("maxnumber").asLong()).isEqualTo(1234);
        assertThat(Handshake.challenge(edge, edge.createVoucher(1), token).path("maxnumber").asLong())
                .as("the default, seckill.tickets.challenge-difficulty").isEqualTo(DIFFICULTY);
    }

    private static <T> List<T> together(int count, IntFunction<Callable<T>> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(count, 40));
        try {
            List<Future<T>> futures = new ArrayList<>();
            IntStream.range(0, count).forEach(i -> futures.add(pool.submit(task.apply(i))));
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
