package dev.seckill;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/**
 * Every top-level package under {@code dev.seckill} is a module (Spring Modulith): no cycle between them,
 * and none uses what another keeps in a sub-package (its internals).
 */
class ModuleBoundariesTest {

    static final ApplicationModules MODULES = ApplicationModules.of(SeckillApplication.class);

    @Test
    void noCycleAndNoModuleReachesIntoAnothersInternals() {
        MODULES.verify();
    }
}
