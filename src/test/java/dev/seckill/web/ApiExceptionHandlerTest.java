package dev.seckill.web;

import java.net.ConnectException;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CompletionException;

import dev.seckill.id.IdsUnavailableException;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.orm.jpa.JpaSystemException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class ApiExceptionHandlerTest {

    private final ApiExceptionHandler handler = new ApiExceptionHandler();

    @Test
    void aRollbackThatFailsOnADeadConnectionIsAnOutageNotABug() {
        // What a socket timeout inside the transaction becomes once the rollback fails too.
        Exception ex = new TransactionSystemException("Could not roll back JPA transaction",
                new JpaSystemException(new RuntimeException("Unable to rollback against JDBC Connection",
                        new SQLException("No operations allowed after connection closed.", "08003"))));
        expectBackendUnavailable(handler.handleUnexpected(ex));
    }

    @Test
    void aRefusedConnectionUnderRedissonsGenericExceptionIsAnOutage() throws Exception {
        // What Redisson fails a queued command with once its Redis process is gone (RedisChaosIT, the admin side).
        RedisException refused = new RedisException("Unexpected exception while processing command",
                new ConnectException("Connection refused"));
        expectBackendUnavailable(handler.handleUnexpected(refused));
        expectBackendUnavailable(handler.handleUnexpected(new CompletionException(refused)));
        MockHttpServletResponse late = new MockHttpServletResponse();
        ProblemResponses.writeFailure(late, new CompletionException(refused), "/admin/vouchers");
        assertThat(late.getStatus()).isEqualTo(503);
    }

    @Test
    void noIdWorkerLeaseIsAnOutage() {
        expectBackendUnavailable(handler.handleOutage(new IdsUnavailableException("no lease")));
    }

    @Test
    void otherSqlErrorsStayInternalErrors() {
        ResponseEntity<ProblemDetail> response = handler.handleUnexpected(
                new TransactionSystemException("boom", new SQLException("syntax", "42000")));
        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(response.getBody().getProperties()).containsEntry("code", "internal-error");
    }

    /** Spring maps Connector/J's S1xxx states (our own bugs: an index out of range, a write in a read-only
     *  transaction) to TransientDataAccessResourceException: still a bug, answered 500 with its stack trace logged. */
    @Test
    void aDriverErrorInOurOwnCodeIsABugNotAnOutage() {
        ResponseEntity<ProblemDetail> response = handler.handleUnexpected(new TransientDataAccessResourceException(
                "Column Index out of range", new SQLException("Column Index out of range, 3 > 2.", "S1009")));
        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(response.getBody().getProperties()).containsEntry("code", "internal-error");
    }

    @Test
    void aProblemsPropertiesFollowItsCodeWhicheverWayItIsWritten() throws Exception {
        SeckillProblem problem = new SeckillProblem(ProblemCode.ALREADY_ORDERED) {
            @Override
            public Map<String, String> properties() {
                return Map.of("orderId", "118324446380449792");
            }
        };
        MockHttpServletResponse fast = new MockHttpServletResponse();
        ProblemResponses.write(fast, problem, "/seckill/1");
        assertThat(fast.getContentAsString()).isEqualTo("{\"detail\":\"This shopper already ordered this voucher\","
                + "\"instance\":\"/seckill/1\",\"status\":409,\"title\":\"This shopper already ordered this voucher\","
                + "\"code\":\"already-ordered\",\"orderId\":\"118324446380449792\"}");

        ResponseEntity<ProblemDetail> viaAdvice = handler.handleSeckillProblem(problem);
        assertThat(viaAdvice.getBody().getProperties()).containsExactly(entry("code", "already-ordered"),
                entry("orderId", "118324446380449792"));
    }

    private static void expectBackendUnavailable(ResponseEntity<ProblemDetail> response) {
        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getBody().getProperties()).containsEntry("code", "backend-unavailable");
        assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
    }
}
