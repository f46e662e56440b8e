package dev.seckill;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a module owns, declared on its {@code package-info.java}: its MySQL tables, the prefixes of its Redis keys and
 * channels, and its Lua scripts. Nothing outside the module may name them (one door per table and per key), so that
 * a change to a table or a key has one place to look; the build checks it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PACKAGE)
public @interface Owns {

    /** MySQL tables, as the migrations in {@code db/migration} create them. */
    String[] tables() default {};

    /** Prefixes of Redis keys and pub/sub channels, e.g. {@code seckill:rate:}. */
    String[] redisKeys() default {};

    /** Lua scripts (resource paths) this module loads. */
    String[] scripts() default {};
}
