package dev.seckill.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.seckill.platform.Outages;
import dev.seckill.refusal.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * The one place that turns exceptions into RFC 9457 problem details. Every body carries a stable
 * {@code code} property (see {@link ProblemCode}); clients must branch on it, never on the text.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);
    static final String UNEXPECTED = "Unexpected error; it was logged";

    @ExceptionHandler(Refusal.class)
    ResponseEntity<ProblemDetail> handleRefusal(Refusal refusal) {
        return handleSeckillProblem(Refusals.problemOf(refusal));
    }

    @ExceptionHandler(SeckillProblem.class)
    ResponseEntity<ProblemDetail> handleSeckillProblem(SeckillProblem problem) {
        return answer(problem);
    }

    /** The answer to a problem: its status, headers and body. For the advice of a feature's own exceptions too. */
    static ResponseEntity<ProblemDetail> answer(SeckillProblem problem) {
        ProblemCode code = problem.code();
        ProblemDetail body = problemOf(code, problem.getMessage());
        problem.properties().forEach(body::setProperty);
        return ResponseEntity.status(code.status()).headers(headersFor(problem)).body(body);
    }

    static HttpHeaders headersFor(SeckillProblem problem) {
        HttpHeaders headers = headersFor(problem.code());
        if (problem.retryAfterSeconds() > 0) {
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(problem.retryAfterSeconds()));
        }
        return headers;
    }

    static HttpHeaders headersFor(ProblemCode code) {
        HttpHeaders headers = new HttpHeaders();
        if (code == ProblemCode.ADMIN_CREDENTIALS_MISSING || code == ProblemCode.ADMIN_CREDENTIALS_INVALID) {
            headers.set(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"seckill-admin\"");
        } else if (code.status().value() == 401) {
            headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"seckill\"");
        } else if (code == ProblemCode.REQUEST_IN_FLIGHT || code == ProblemCode.VOUCHER_BUSY
                || code == ProblemCode.BACKEND_UNAVAILABLE || code == ProblemCode.RATE_LIMITED
                || code == ProblemCode.PAYMENT_UNAVAILABLE) {
            headers.set(HttpHeaders.RETRY_AFTER, "1");
        }
        return headers;
    }

    /**
     * An outage is not a bug: say so, and when to come back, instead of a 500. Which failures are outages is
     * decided in one place, {@link Outages} (no id worker lease is one too); {@link #handleUnexpected} asks it.
     */
    ResponseEntity<ProblemDetail> handleOutage(Exception ex) {
        log.warn("Backend unavailable: {}", ex.toString());
        ProblemCode code = ProblemCode.BACKEND_UNAVAILABLE;
        return ResponseEntity.status(code.status()).headers(headersFor(code)).body(problemOf(code, code.title()));
    }

    /**
     * Anything not handled above: an outage when {@link Outages} finds one in it or under it (Redisson's
     * synchronous calls surface a timeout or a lost connection wrapped in a {@code CompletionException}, seen while
     * Redis restarts, or a refused connection under its generic {@code RedisException}), else a bug.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> handleUnexpected(Exception ex) {
        if (Outages.isOutage(ex)) {
            return handleOutage(ex);
        }
        log.error("Unexpected error", ex);
        ProblemCode code = ProblemCode.INTERNAL_ERROR;
        return ResponseEntity.status(code.status()).body(problemOf(code, UNEXPECTED));
    }

    /** Spring MVC's own exceptions (bad JSON, wrong method, type mismatch, ...) get a code too. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        ProblemCode code = codeOf(ex);
        ProblemDetail problem = body instanceof ProblemDetail detail ? detail : ProblemDetail.forStatus(statusCode);
        if (code == ProblemCode.BODY_TOO_LARGE) {
            statusCode = code.status();
            problem = ProblemDetail.forStatus(statusCode);
            problem.setDetail("The request body is larger than this endpoint accepts");
        }
        problem.setTitle(code.title());
        problem.setProperty("code", code.code());
        if (ex instanceof MethodArgumentNotValidException invalid) {
            problem.setDetail("Invalid fields: " + String.join(", ",
                    invalid.getFieldErrors().stream().map(FieldError::getField).distinct().toList()));
            problem.setProperty("errors", invalid.getFieldErrors().stream()
                    .map(e -> Map.of("field", e.getField(), "message", String.valueOf(e.getDefaultMessage())))
                    .toList());
        } else if (ex instanceof HandlerMethodValidationException invalid) {
            List<String> messages = invalid.getAllErrors().stream()
                    .map(e -> String.valueOf(e.getDefaultMessage())).toList();
            problem.setDetail(String.join("; ", messages));
            // The same list a body alone gets (MethodArgumentNotValidException): a body's fields by name, and
            // a path or query parameter by its own name, so a form can put each message next to its field.
            List<Map<String, String>> errors = new ArrayList<>();
            invalid.getBeanResults().forEach(bean -> bean.getFieldErrors().forEach(e -> errors.add(
                    Map.of("field", e.getField(), "message", String.valueOf(e.getDefaultMessage())))));
            invalid.getValueResults().forEach(value -> value.getResolvableErrors().forEach(e -> errors.add(Map.of(
                    "field", String.valueOf(value.getMethodParameter().getParameterName()),
                    "message", String.valueOf(e.getDefaultMessage())))));
            if (!errors.isEmpty()) {
                problem.setProperty("errors", errors);
            }
        } else if (code == ProblemCode.MALFORMED_BODY) {
            // Jackson's message can echo internals (class names); keep the answer generic.
            problem.setDetail("The body must be a JSON object with the documented fields and types");
        }
        return super.handleExceptionInternal(ex, problem, headers, statusCode, request);
    }

    private static ProblemCode codeOf(Exception ex) {
        if (ex instanceof MethodArgumentNotValidException || ex instanceof HandlerMethodValidationException) {
            return ProblemCode.VALIDATION_FAILED;
        }
        if (ex instanceof HttpMessageNotReadableException) {
            return causedByOversizedBody(ex) ? ProblemCode.BODY_TOO_LARGE : ProblemCode.MALFORMED_BODY;
        }
        if (ex instanceof TypeMismatchException) {
            return ProblemCode.INVALID_PARAMETER;
        }
        if (ex instanceof MissingServletRequestParameterException || ex instanceof MissingRequestHeaderException) {
            return ProblemCode.MISSING_PARAMETER;
        }
        if (ex instanceof HttpRequestMethodNotSupportedException) {
            return ProblemCode.METHOD_NOT_ALLOWED;
        }
        if (ex instanceof HttpMediaTypeNotSupportedException) {
            return ProblemCode.UNSUPPORTED_MEDIA_TYPE;
        }
        if (ex instanceof HttpMediaTypeNotAcceptableException) {
            return ProblemCode.NOT_ACCEPTABLE;
        }
        if (ex instanceof NoResourceFoundException) {
            return ProblemCode.NOT_FOUND;
        }
        return ProblemCode.INVALID_PARAMETER;
    }

    private static boolean causedByOversizedBody(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    static ProblemDetail problemOf(ProblemCode code, String detail) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(code.status(), detail);
        body.setTitle(code.title());
        body.setProperty("code", code.code());
        return body;
    }
}
