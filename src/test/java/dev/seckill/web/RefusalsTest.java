package dev.seckill.web;

import java.util.Arrays;
import java.util.Map;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;

/** The one mapping from the sale's refusals to problem codes, without Spring. */
class RefusalsTest {

    @Test
    void everyReasonMapsToTheProblemCodeWrittenDownForIt() {
        for (Reason reason : Reason.values()) {
            ProblemCode code = Refusals.codeOf(reason);
            RefusalAnswers.Answer expected = RefusalAnswers.to(reason);
            assertThat(code).as(reason.name()).isNotNull();
            assertThat(code.code()).as(reason.name()).isEqualTo(expected.code());
            assertThat(code.status().value()).as(reason.name()).isEqualTo(expected.status());
        }
    }

    @Test
    void everyReasonHasExactlyOneProblemCode() {
        for (Reason reason : Reason.values()) {
            assertThat(Arrays.stream(ProblemCode.values()).filter(code -> code.reason() == reason)).as(reason.name()).hasSize(1);
        }
    }

    @Test
    void aRefusalsTitleIsItsReasonsOwn() {
        for (Reason reason : Reason.values()) {
            assertThat(Refusals.codeOf(reason).title()).as(reason.name()).isEqualTo(reason.title());
        }
        assertThat(ProblemCode.ORDER_EXPIRED.title()).isEqualTo("The order expired");
    }

    @Test
    void noTwoReasonsShareACode() {
        assertThat(Arrays.stream(Reason.values()).map(Refusals::codeOf)).doesNotHaveDuplicates();
    }

    @Test
    void theStatusesClientsBranchOn() {
        assertThat(Refusals.codeOf(Reason.VOUCHER_NOT_FOUND).status()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(Refusals.codeOf(Reason.SOLD_OUT).status()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(Refusals.codeOf(Reason.ALREADY_ORDERED).status()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(Refusals.codeOf(Reason.REQUEST_IN_FLIGHT).status()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(Refusals.codeOf(Reason.RATE_LIMITED).status()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
        assertThat(Refusals.codeOf(Reason.VOUCHER_BUSY).status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(Refusals.codeOf(Reason.ORDER_UNCONFIRMED).status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    }

    @Test
    void aProblemKeepsTheRefusalsDetailAndRetryAfterAndNamesItsOrderAsAString() {
        SeckillProblem problem = Refusals.problemOf(new Refusal(Reason.RATE_LIMITED, "At most 25 requests per 1s", 2, 0));
        assertThat(problem.code()).isEqualTo(ProblemCode.RATE_LIMITED);
        assertThat(problem.getMessage()).isEqualTo("At most 25 requests per 1s");
        assertThat(problem.retryAfterSeconds()).isEqualTo(2);
        assertThat(problem.properties()).isEmpty();

        SeckillProblem ordered = Refusals.problemOf(Refusal.alreadyOrdered(118_324_446_380_449_792L));
        assertThat(ordered.code()).isEqualTo(ProblemCode.ALREADY_ORDERED);
        assertThat(ordered.getMessage()).isEqualTo(Reason.ALREADY_ORDERED.text());
        assertThat(ordered.properties()).isEqualTo(Map.of("orderId", "118324446380449792"));
        // a store that could not name the order still refuses, without an orderId
        assertThat(Refusals.problemOf(Refusal.alreadyOrdered(0)).properties()).isEmpty();
    }
}
