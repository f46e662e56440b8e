package dev.seckill.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * An integration test of the full suite only ({@code ./mvnw verify -Pchaos}, {@code -Dseckill.chaos=all}): it
 * takes long and a faster test of {@code ./mvnw verify} guards the same promise (each class says which), or it
 * drives a browser. docs/testing.md lists both suites.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@EnabledIfSystemProperty(named = "seckill.chaos", matches = "all",
        disabledReason = "in the full suite only: ./mvnw verify -Pchaos (or -Dseckill.chaos=all)")
public @interface FullSuite {
}
