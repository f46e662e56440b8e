package dev.seckill.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Tells a {@link LateAnswer} that the request's own thread has left the filters, so the answer may be
 * written from another thread without racing them. At the highest precedence it runs outside Spring
 * Security's chain (-100) and the HTTP observation (highest + 1), whose work after the chain touches the
 * response; the filters it may share that order with (the character encoding, the instance id, the
 * draining filter) do all theirs before the chain.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class LateAnswerFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } finally {
            LateAnswer.dispatchEnded(request);
        }
    }
}
