package dev.seckill.lab;

/** What the lab refuses; the web layer gives each problem its HTTP answer. No stack trace: these are answers. */
public class LabException extends RuntimeException {

    public enum Problem { UNKNOWN_STRATEGY, UNKNOWN_FAULT, FAULT_NOT_APPLICABLE, FAULT_NOT_IN_PLACE, RUN_NOT_FOUND }

    private final Problem problem;

    public LabException(Problem problem, String message) {
        super(message, null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
