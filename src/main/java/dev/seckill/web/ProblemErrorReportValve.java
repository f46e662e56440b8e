package dev.seckill.web;

import java.io.IOException;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat answers some requests itself, before Spring sees them: a URL with {@code %2F} or {@code %00},
 * a request line or headers it cannot parse or that are too large. Its own page for those is HTML; this
 * one is the same RFC 9457 problem every other refusal is.
 */
class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        ProblemCode code = switch (status) {
            case 404 -> ProblemCode.NOT_FOUND;
            case 405 -> ProblemCode.METHOD_NOT_ALLOWED;
            case 413 -> ProblemCode.BODY_TOO_LARGE;
            default -> status < 500 ? ProblemCode.BAD_REQUEST : ProblemCode.INTERNAL_ERROR;
        };
        String uri = request.getRequestURI();
        byte[] body = ProblemResponses.render(code, status, code.title(), uri == null ? "" : uri);
        try {
            response.setContentType(ProblemResponses.CONTENT_TYPE);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
            response.finishResponse();
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response was taken over: nothing more to say
        }
    }
}
