package dev.seckill.chaos;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A chaos scenario left out of {@code ./mvnw verify} (so out of CI): it takes long, or it changes what the
 * whole database server shares. {@code scripts/chaos} runs it; by hand,
 * {@code ./mvnw verify -Dit.test=... -Dseckill.chaos=all}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@EnabledIfSystemProperty(named = "seckill.chaos", matches = "all",
        disabledReason = "run by scripts/chaos (or -Dseckill.chaos=all), not by ./mvnw verify")
@interface RunByScriptsChaos {
}
