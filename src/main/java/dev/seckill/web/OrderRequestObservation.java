package dev.seckill.web;

import io.micrometer.observation.ObservationPredicate;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Order requests ({@code POST /seckill/{id}}, and the shop page's {@code /shop/seckill/{id}}) are not observed
 * as {@code http.server.requests}: during a sale they are nearly all the traffic, and the observation (its
 * context, tags, timer and, for an answer written late, its async listener) was about 5% of an order's CPU
 * in the profile (docs/benchmarks.md), for a meter no dashboard reads. What a sale needs is counted
 * by {@code SaleMeters} (accepted, refused by code, the Redis call's time); every other request is still
 * observed.
 */
@Configuration(proxyBeanMethods = false)
class OrderRequestObservation {

    @Bean
    ObservationPredicate noObservationOfOrderRequests() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request && isOrder(request.getCarrier()));
    }

    static boolean isOrder(HttpServletRequest request) {
        String uri = request.getRequestURI();
        return "POST".equals(request.getMethod()) && (uri.startsWith("/seckill/") || uri.startsWith("/shop/seckill/"));
    }
}
