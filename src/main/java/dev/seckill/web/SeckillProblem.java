package dev.seckill.web;

/**
 * A refusal with a stable {@link ProblemCode}. Thrown anywhere; turned into an RFC 9457 body by
 * {@link ApiExceptionHandler}. No stack trace: refusals are expected answers, and at thousands a
 * second filling stack traces would cost real CPU.
 */
public class SeckillProblem extends RuntimeException {

    private final ProblemCode code;

    public SeckillProblem(ProblemCode code) {
        this(code, code.title());
    }

    public SeckillProblem(ProblemCode code, String detail) {
        super(detail, null, false, false);
        this.code = code;
    }

    public ProblemCode code() {
        return code;
    }
}
