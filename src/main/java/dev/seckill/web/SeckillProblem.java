package dev.seckill.web;

import java.util.Map;

/**
 * A refusal with a stable {@link ProblemCode}. Thrown anywhere; turned into an RFC 9457 body by
 * {@link ApiExceptionHandler}. No stack trace: refusals are expected answers, and at thousands a
 * second filling stack traces would cost real CPU.
 */
public class SeckillProblem extends RuntimeException {

    private final ProblemCode code;
    private final long retryAfterSeconds;

    public SeckillProblem(ProblemCode code) {
        this(code, code.title());
    }

    public SeckillProblem(ProblemCode code, String detail) {
        this(code, detail, 0);
    }

    /** A refusal that tells the client when to come back ({@code Retry-After}); 0 leaves the code's default. */
    public SeckillProblem(ProblemCode code, String detail, long retryAfterSeconds) {
        super(detail, null, false, false);
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
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
        return Map.of();
    }
}
