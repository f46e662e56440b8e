package dev.seckill.web;

import dev.seckill.refusal.Refusal;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/** A page's refusal as a page: the same status and problem code as the API would give, in words. */
@ControllerAdvice(annotations = Pages.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class PageProblems {

    @ExceptionHandler(Refusal.class)
    String refusal(Refusal refusal, HttpServletResponse response, Model model) {
        return page(Refusals.codeOf(refusal.reason()), refusal.getMessage(), response, model);
    }

    @ExceptionHandler(SeckillProblem.class)
    String problem(SeckillProblem problem, HttpServletResponse response, Model model) {
        return page(problem.code(), problem.getMessage(), response, model);
    }

    @ExceptionHandler({HandlerMethodValidationException.class, MethodArgumentTypeMismatchException.class})
    String badParameter(Exception ex, HttpServletResponse response, Model model) {
        return page(ProblemCode.INVALID_PARAMETER, ProblemCode.INVALID_PARAMETER.title(), response, model);
    }

    private static String page(ProblemCode code, String detail, HttpServletResponse response, Model model) {
        response.setStatus(code.status().value());
        model.addAttribute("code", code.code());
        model.addAttribute("title", code.title());
        model.addAttribute("detail", detail);
        model.addAttribute("status", code.status().value());
        return "problem";
    }
}
