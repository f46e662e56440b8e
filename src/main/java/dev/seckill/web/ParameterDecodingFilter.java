package dev.seckill.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Parameters that Tomcat cannot decode ({@code ?next=%}, {@code %zz}, bytes that are not UTF-8, a form over Tomcat's
 * parameter count) are refused here as 400 {@code invalid-parameter}, before anything asks for one. Tomcat throws on
 * the first {@code getParameter} of such a request, and that is wherever the first one happens to be asked: in a
 * controller's argument (which would answer 500 internal-error, {@code GET /sign-in?next=%}) or in Spring Security's
 * CSRF filter reading {@code _csrf}. After the body size limit, so an oversized form is never read.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
class ParameterDecodingFilter extends OncePerRequestFilter {

    private final HandlerExceptionResolver problems;

    ParameterDecodingFilter(@Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getQueryString() == null && !isForm(request)) {
            // Nothing to decode: the order line's requests (no query, no form) pay no parse.
            chain.doFilter(request, response);
            return;
        }
        try {
            // parses the query string, and a form body (what Spring would read anyway); no other body is touched
            request.getParameterMap();
        } catch (InvalidParameterException undecodable) {
            problems.resolveException(request, response, null, new SeckillProblem(ProblemCode.INVALID_PARAMETER,
                    "A parameter is not valid percent-encoded UTF-8, or there are too many of them"));
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean isForm(HttpServletRequest request) {
        String type = request.getContentType();
        return type != null && (type.regionMatches(true, 0, "application/x-www-form-urlencoded", 0, 33)
                || type.regionMatches(true, 0, "multipart/form-data", 0, 19));
    }
}
