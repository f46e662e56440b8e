package dev.seckill.lab.web;

import dev.seckill.lab.LabEnabled;
import dev.seckill.lab.LabException;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.ProblemResponses;
import dev.seckill.web.SeckillProblem;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The lock lab's refusals, as problem codes: the lab maps its own exceptions, so the shared handler needs to know
 * nothing of the lab. Ahead of the shared handler, whose catch-all would otherwise answer them as 500.
 */
@LabEnabled
@RestControllerAdvice(assignableTypes = LabController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class LabProblems {

    @ExceptionHandler(LabException.class)
    ResponseEntity<ProblemDetail> handle(LabException refusal) {
        return ProblemResponses.answer(problemOf(refusal));
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
