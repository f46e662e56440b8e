package dev.seckill.lab;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The lab's connections to its own nodes, and the two families of locks built on them. */
@LabEnabled
@Configuration(proxyBeanMethods = false)
class LabConfiguration {

    /** This instance's own "process" towards the lab's nodes; it dies with the instance. */
    @Bean(destroyMethod = "die")
    LabProcess labProcess(LabSettings settings) {
        return LabProcess.start(settings);
    }

    @Bean
    SetnxLocks setnxLocks(LabProcess process, LabSettings settings) {
        return new SetnxLocks(process.first(), settings);
    }

    @Bean
    RedissonLocks redissonLocks(LabSettings settings) {
        return new RedissonLocks(settings);
    }
}
