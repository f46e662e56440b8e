package dev.seckill.web;

import java.io.IOException;

import dev.seckill.InstanceIdentity;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** First filter of all, so that even a refusal written by a later filter names its instance. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class InstanceIdFilter extends OncePerRequestFilter {

    static final String HEADER = "X-Instance-Id";

    private final String instanceId;

    InstanceIdFilter(InstanceIdentity identity) {
        this.instanceId = identity.instanceId();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader(HEADER, instanceId);
        chain.doFilter(request, response);
    }
}
