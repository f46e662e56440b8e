package dev.seckill.web;

import dev.seckill.lab.LabException;

/** The lock lab's refusals, as problem codes. */
final class LabProblems {

    private LabProblems() {
    }

    /** Exhaustive: a new problem of the lab does not compile until it has its answer here. */
    static SeckillProblem problemOf(LabException refusal) {
        ProblemCode code = switch (refusal.problem()) {
            case UNKNOWN_STRATEGY -> ProblemCode.LAB_UNKNOWN_STRATEGY;
            case UNKNOWN_FAULT -> ProblemCode.LAB_UNKNOWN_FAULT;
            case FAULT_NOT_APPLICABLE -> ProblemCode.LAB_FAULT_NOT_APPLICABLE;
            case FAULT_NOT_IN_PLACE -> ProblemCode.LAB_FAULT_NOT_IN_PLACE;
            case RUN_NOT_FOUND -> ProblemCode.LAB_RUN_NOT_FOUND;
        };
        return new SeckillProblem(code, refusal.getMessage());
    }
}
