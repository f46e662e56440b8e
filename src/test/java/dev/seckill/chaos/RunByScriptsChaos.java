package dev.seckill.chaos;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A chaos scenario left out of the fast suite, {@code ./mvnw verify}: it takes long, or it changes what the whole
 * database server shares. The full suite runs it ({@code ./mvnw verify -Pchaos}), and {@code scripts/chaos}; by
 * hand, {@code ./mvnw verify -Dit.test=... -Dseckill.chaos=all}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@EnabledIfSystemProperty(named = "seckill.chaos", matches = "all",
        disabledReason = "in the full suite only: ./mvnw verify -Pchaos, scripts/chaos (or -Dseckill.chaos=all)")
@interface RunByScriptsChaos {
}
