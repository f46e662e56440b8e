package dev.seckill.sandbox;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The sandbox payment provider as a process of its own, beside the shop's instances, as a real provider is: the shop
 * reaches its API over HTTP, the shopper's browser its checkout page, and it posts its notifications to the shop's
 * webhook. It scans only its own package and reads its own configuration ({@code dev/seckill/sandbox/sandbox.yml},
 * not the shop's {@code application.yml}). The autoconfigurations it leaves out are what the shop's dependencies bring
 * and it does not use: Redis, JPA, Flyway (the shop's migrations create its tables) and a generated login.
 */
@SpringBootApplication(excludeName = {
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
        "org.redisson.spring.starter.RedissonAutoConfigurationV2",
        "org.redisson.spring.starter.RedissonAutoConfigurationV4",
        "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
        "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"})
@ConfigurationPropertiesScan
@EnableScheduling
public class SandboxApplication {

    /** Where its settings are read from: inside its own package, so the shop's jar, which leaves it out, has none. */
    public static final String CONFIG = "spring.config.location=classpath:/dev/seckill/sandbox/sandbox.yml,"
            + "optional:file:./sandbox.yml";

    public static void main(String[] args) {
        builder().run(args);
    }

    /** The application with its own configuration: what {@link #main} runs, and what a test may start in its JVM. */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(SandboxApplication.class).properties(CONFIG);
    }
}
