package dev.seckill.web;

import dev.seckill.platform.Outages;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a refusal straight to the response, byte for byte the body {@link ApiExceptionHandler} would
 * produce. Only for the seckill endpoint's own refusals: on a sold-out voucher, Spring MVC resolving the
 * exception and negotiating a converter for it are about half of each request (docs/benchmarks.md), so
 * during a sale (most answers are refusals) the endpoint answers without either.
 */
public final class ProblemResponses {

    public static final String CONTENT_TYPE = "application/problem+json";

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    private ProblemResponses() {
    }

    public static void write(HttpServletResponse response, SeckillProblem problem, String instance) throws IOException {
        ProblemCode code = problem.code();
        response.setStatus(code.status().value());
        ApiExceptionHandler.headersFor(problem).forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        byte[] body = render(code, code.status().value(), problem.getMessage(), instance, problem.properties());
        response.setContentType(CONTENT_TYPE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /**
     * The answer {@link ApiExceptionHandler} gives a problem (status, headers, problem+json body), for a feature's
     * own exception advice (the lock lab's) that maps its exceptions to problems.
     */
    public static ResponseEntity<ProblemDetail> answer(SeckillProblem problem) {
        return ApiExceptionHandler.answer(problem);
    }

    /**
     * The code {@link ApiExceptionHandler} answers an exception that is no {@link SeckillProblem} with:
     * backend-unavailable for an outage, else internal-error. For counting answers that go through it.
     */
    public static ProblemCode codeOf(Throwable failure) {
        return Outages.isOutage(failure) ? ProblemCode.BACKEND_UNAVAILABLE : ProblemCode.INTERNAL_ERROR;
    }

    /**
     * What {@link ApiExceptionHandler} answers a failure that is no {@link SeckillProblem} with (503
     * backend-unavailable with its Retry-After for an outage, else 500 internal-error, logged), written
     * straight to the response: for an answer given after the handler returned, which no exception
     * handler sees (the asynchronous order path).
     */
    public static void writeFailure(HttpServletResponse response, Throwable failure, String instance) throws IOException {
        ProblemCode code = codeOf(failure);
        String detail;
        if (code == ProblemCode.BACKEND_UNAVAILABLE) {
            log.warn("Backend unavailable: {}", failure.toString());
            detail = code.title();
        } else {
            log.error("Unexpected error", failure);
            detail = ApiExceptionHandler.UNEXPECTED;
        }
        response.setStatus(code.status().value());
        ApiExceptionHandler.headersFor(code).forEach((name, values) -> values.forEach(v -> response.addHeader(name, v)));
        byte[] body = render(code, detail, instance);
        response.setContentType(CONTENT_TYPE);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** The same fields, in the same order, as Spring's ProblemDetail serialization. */
    static byte[] render(ProblemCode code, String detail, String instance) {
        return render(code, code.status().value(), detail, instance);
    }

    /** With another status than the code's own, for answers whose status someone else chose (Tomcat). */
    static byte[] render(ProblemCode code, int status, String detail, String instance) {
        return render(code, status, detail, instance, Map.of());
    }

    private static byte[] render(ProblemCode code, int status, String detail, String instance,
            Map<String, String> properties) {
        StringBuilder json = new StringBuilder(160);
        json.append("{\"detail\":");
        string(json, detail);
        json.append(",\"instance\":");
        string(json, instance);
        json.append(",\"status\":").append(status).append(",\"title\":");
        string(json, code.title());
        json.append(",\"code\":");
        string(json, code.code());
        properties.forEach((name, value) -> {
            json.append(',');
            string(json, name);
            json.append(':');
            string(json, value);
        });
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    static void string(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
