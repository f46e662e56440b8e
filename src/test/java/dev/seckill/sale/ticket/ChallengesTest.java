package dev.seckill.sale.ticket;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.support.Handshake;
import dev.seckill.support.SteppingClock;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The challenge decisions, by a clock the test moves; solved by ALTCHA's own solver, as the widget solves them. */
class ChallengesTest {

    static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    static final JsonMapper JSON = JsonMapper.builder().build();

    final SteppingClock clock = SteppingClock.at(NOW);
    /** Strict as the application's own mapper (spring.jackson...fail-on-unknown-properties). */
    static final JsonMapper STRICT = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    final Challenges challenges = new Challenges(settings("a-secret-of-at-least-thirty-two-characters"), STRICT, clock);

    @Test
    void aSolutionForThisShopperAndVoucherIsAcceptedUntilItsChallengeExpires() {
        String solution = solved(challenges.create(7, 42, 1_000, NOW.plusSeconds(600)));

        clock.set(NOW.plusSeconds(600));
        Challenges.Solved solved = challenges.verify(solution, 7, 42, 1_000);

        assertThat(solved.expiresAt()).isEqualTo(NOW.plusSeconds(600));
        assertThat(solved.challenge()).hasSize(64);
        clock.set(NOW.plusSeconds(601));
        assertRefused(() -> challenges.verify(solution, 7, 42, 1_000), "expired");
    }

    @Test
    void theWidgetsOwnFieldsAreIgnored() {
        ObjectNode payload = (ObjectNode) JSON.readTree(Base64.getDecoder().decode(
                solved(challenges.create(7, 42, 1_000, NOW.plusSeconds(600)))));
        payload.put("took", 447);

        assertThat(challenges.verify(encode(payload), 7, 42, 1_000).expiresAt()).isEqualTo(NOW.plusSeconds(600));
    }

    @Test
    void aChallengeEasierThanTheVoucherAsksNowIsRefused() {
        String easy = solved(challenges.create(7, 42, 10, NOW.plusSeconds(600)));

        assertRefused(() -> challenges.verify(easy, 7, 42, 1_000), "easier");
        assertThat(challenges.verify(easy, 7, 42, 10).expiresAt()).isEqualTo(NOW.plusSeconds(600));
    }

    @Test
    void aSolutionIsBoundToItsShopperAndVoucher() {
        String solution = solved(challenges.create(7, 42, 1_000, NOW.plusSeconds(600)));

        assertRefused(() -> challenges.verify(solution, 8, 42, 1_000), "another shopper or voucher");
        assertRefused(() -> challenges.verify(solution, 7, 43, 1_000), "another shopper or voucher");
    }

    @Test
    void aWrongNumberOrAnotherKeysChallengeIsRefused() {
        Challenge challenge = challenges.create(7, 42, 1_000, NOW.plusSeconds(600));
        ObjectNode payload = (ObjectNode) JSON.readTree(Base64.getDecoder().decode(solved(challenge)));
        payload.put("number", payload.path("number").asLong() + 1);

        assertRefused(() -> challenges.verify(encode(payload), 7, 42, 1_000), "does not solve");
        Challenges otherKey = new Challenges(settings("another-secret-of-at-least-thirty-two-chars"), JSON, clock);
        assertRefused(() -> otherKey.verify(solved(challenge), 7, 42, 1_000), "does not solve");
    }

    @Test
    void malformedSolutionsAreRefusedNotThrown() {
        String valid = solved(challenges.create(7, 42, 1_000, NOW.plusSeconds(600)));
        ObjectNode sha1 = (ObjectNode) JSON.readTree(Base64.getDecoder().decode(valid));
        sha1.put("algorithm", "SHA-1");
        ObjectNode noSalt = (ObjectNode) JSON.readTree(Base64.getDecoder().decode(valid));
        noSalt.remove("salt");

        for (String bad : new String[] {"", "%%%", encode("[]"), encode("null"), encode("{\"number\":\"x\"}"),
                encode(sha1), encode(noSalt), "A".repeat(Challenges.MAX_SOLUTION_LENGTH + 1)}) {
            assertThatThrownBy(() -> challenges.verify(bad, 7, 42, 1_000)).as(bad).isInstanceOfSatisfying(Refusal.class,
                    refusal -> assertThat(refusal.reason()).isEqualTo(Reason.CHALLENGE_INVALID));
        }
    }

    @Test
    void theDifficultyIsTheLargestNumberAndZeroMakesATrivialOne() {
        assertThat(challenges.create(7, 42, 5_000, NOW.plusSeconds(60)).maxnumber()).isEqualTo(5_000);
        assertThat(challenges.create(7, 42, 0, NOW.plusSeconds(60)).maxnumber()).isEqualTo(1);
    }

    private void assertRefused(Runnable verify, String why) {
        assertThatThrownBy(verify::run).isInstanceOfSatisfying(Refusal.class, refusal -> {
            assertThat(refusal.reason()).isEqualTo(Reason.CHALLENGE_INVALID);
            assertThat(refusal.getMessage()).contains(why);
        });
    }

    private static String solved(Challenge challenge) {
        JsonNode node = JSON.valueToTree(challenge);
        return Handshake.solve(node);
    }

    private static String encode(Object json) {
        String text = json instanceof String s ? s : JSON.writeValueAsString(json);
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static TicketSettings settings(String secret) {
        return new TicketSettings(true, Duration.ofSeconds(30), 50_000, Duration.ofMinutes(10), secret);
    }
}
