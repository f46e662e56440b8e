package dev.seckill.user;

import java.util.List;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class AuthConfiguration implements WebMvcConfigurer {

    private final CurrentShopperResolver currentShopperResolver;

    AuthConfiguration(CurrentShopperResolver currentShopperResolver) {
        this.currentShopperResolver = currentShopperResolver;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(currentShopperResolver);
    }

    @Bean
    FilterRegistrationBean<AdminAuthFilter> adminAuthFilter(AuthSettings settings,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
        FilterRegistrationBean<AdminAuthFilter> registration =
                new FilterRegistrationBean<>(new AdminAuthFilter(settings, problems));
        registration.addUrlPatterns("/admin/*", "/actuator/*");
        // After the instance id and body size filters, before anything reads the body.
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
        return registration;
    }
}
