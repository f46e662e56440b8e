package dev.seckill.web;

import java.util.Map;

/**
 * A problem with a stable {@link ProblemCode}, as the web module answers it (a {@link Refusals refusal} of
 * the sale, or one of the web layer's own). Turned into an RFC 9457 body by
 * {@link ApiExceptionHandler}. No stack trace: refusals are expected answers, and at thousands a
 * second filling stack traces would cost real CPU.
 */
public class SeckillProblem extends RuntimeException {

    private final ProblemCode code;
    private final long retryAfterSeconds;
    private final Map<String, String> properties;

    public SeckillProblem(ProblemCode code) {
        this(code, code.title());
    }

    public SeckillProblem(ProblemCode code, String detail) {
        this(code, detail, 0);
    }

    /** A refusal that tells the client when to come back ({@code Retry-After}); 0 leaves the code's default. */
    public SeckillProblem(ProblemCode code, String detail, long retryAfterSeconds) {
        this(code, detail, retryAfterSeconds, Map.of());
    }

    /** @param properties members the body carries after {@code code}, in this order */
    public SeckillProblem(ProblemCode code, String detail, long retryAfterSeconds, Map<String, String> properties) {
        super(detail, null, false, false);
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
        this.properties = properties;
    }

    public ProblemCode code() {
        return code;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * Members the body carries after {@code code}, in this order; strings, so that a 64-bit id
     * survives a JavaScript client. None by default.
     */
    public Map<String, String> properties() {
        return properties;
    }
}
