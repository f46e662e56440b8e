package dev.seckill.web;

import java.io.IOException;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat answers some requests itself, before Spring sees them: a URL with {@code %2F} or {@code %00},
 * a request line or headers it cannot parse or that are too large, TRACE, a Transfer-Encoding it does not
 * know, an HTTP version it does not speak. Handlers answer a few with {@code sendError} (a range past the end
 * of a stylesheet), and an exception that escapes every handler ends here too. Its own page for those is HTML
 * (Spring Boot's error page, not installed here, was a JSON body with {@code "status":999} when asked for
 * directly); this one is the same RFC 9457 problem every other refusal is, with a code for the status.
 */
class ProblemErrorReportValve extends ErrorReportValve {

    private final String instanceId;

    /** As Tomcat would make it by its class name: without the instance's name. */
    ProblemErrorReportValve() {
        this(null);
    }

    /** Naming the instance in {@code X-Instance-Id}, as every other answer does, also where no filter ran. */
    ProblemErrorReportValve(String instanceId) {
        this.instanceId = instanceId;
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        ProblemCode code = codeFor(status);
        String uri = request.getRequestURI();
        byte[] body = ProblemResponses.render(code, status, code.title(), uri == null ? "" : uri);
        try {
            if (instanceId != null && !response.containsHeader(InstanceIdFilter.HEADER)) {
                response.setHeader(InstanceIdFilter.HEADER, instanceId);
            }
            response.setContentType(ProblemResponses.CONTENT_TYPE);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response was taken over: nothing more to say
        }
    }

    /** The code of a status the container (or a handler's {@code sendError}) set, by its meaning. */
    static ProblemCode codeFor(int status) {
        return switch (status) {
            case 404 -> ProblemCode.NOT_FOUND;
            case 405 -> ProblemCode.METHOD_NOT_ALLOWED;
            case 406 -> ProblemCode.NOT_ACCEPTABLE;
            case 413 -> ProblemCode.BODY_TOO_LARGE;
            case 414 -> ProblemCode.URI_TOO_LONG;
            case 415 -> ProblemCode.UNSUPPORTED_MEDIA_TYPE;
            case 416 -> ProblemCode.RANGE_NOT_SATISFIABLE;
            case 431 -> ProblemCode.HEADER_TOO_LARGE;
            case 501 -> ProblemCode.NOT_IMPLEMENTED;
            case 505 -> ProblemCode.HTTP_VERSION_NOT_SUPPORTED;
            default -> status < 500 ? ProblemCode.BAD_REQUEST : ProblemCode.INTERNAL_ERROR;
        };
    }
}
