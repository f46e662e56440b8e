package dev.seckill.platform;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * While readiness is {@code REFUSING_TRAFFIC} (a shutdown's drain, see {@link TrafficDrain}), every answer
 * closes its connection: Tomcat honours the header, and Nginx does not put the connection back into its
 * keep-alive pool. Its next request to this instance needs a new connection, which the closed port then
 * refuses, and Nginx sends the request to the other instance instead. First of all filters, so that a
 * refusal written by a later filter closes its connection too.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class DrainingConnectionFilter extends OncePerRequestFilter {

    private final ApplicationAvailability availability;

    DrainingConnectionFilter(ApplicationAvailability availability) {
        this.availability = availability;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (availability.getReadinessState() == ReadinessState.REFUSING_TRAFFIC) {
            response.setHeader(HttpHeaders.CONNECTION, "close");
        }
        chain.doFilter(request, response);
    }
}
