package dev.seckill;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/**
 * Every top-level package under {@code dev.seckill} is a module (Spring Modulith): no cycle between them,
 * and none uses what another keeps in a sub-package (its internals). The packages of the other applications in the
 * source tree ({@link OtherApplications}) are not modules of this one.
 */
class ModuleBoundariesTest {

    static final DescribedPredicate<JavaClass> OTHER_APPLICATIONS = DescribedPredicate.describe("another application's",
            type -> OtherApplications.PACKAGES.stream().anyMatch(type.getName()::startsWith));

    static final ApplicationModules MODULES = ApplicationModules.of(SeckillApplication.class, OTHER_APPLICATIONS);

    @Test
    void noCycleAndNoModuleReachesIntoAnothersInternals() {
        MODULES.verify();
    }
}
