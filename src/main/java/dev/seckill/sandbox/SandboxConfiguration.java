package dev.seckill.sandbox;

import java.util.Random;
import java.util.random.RandomGenerator;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@SandboxEnabled
@Configuration(proxyBeanMethods = false)
class SandboxConfiguration {

    /**
     * The dice of the sandbox's misbehaviour (delays, duplicates): one bean, so a test can replace it with a seeded
     * one. {@link Random} because the deliverer's and the requests' threads share it.
     */
    @Bean
    RandomGenerator sandboxRandom() {
        return new Random();
    }
}
