package dev.seckill.sandbox;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The sandbox provider is an application of its own, in a jar of its own: it uses no class of the shop's, and the shop
 * none of its (they speak HTTP). Either would fail only at run time, in the jar that lacks the class.
 */
class SandboxStandsAloneTest {

    static final JavaClasses MAIN = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.seckill");

    @Test
    void theSandboxUsesNothingOfTheShop() {
        noClasses().that().resideInAPackage("dev.seckill.sandbox..")
                .should().dependOnClassesThat(resideInAPackage("dev.seckill..")
                        .and(resideOutsideOfPackage("dev.seckill.sandbox..")))
                .check(MAIN);
    }

    @Test
    void theShopUsesNothingOfTheSandbox() {
        noClasses().that().resideOutsideOfPackage("dev.seckill.sandbox..")
                .should().dependOnClassesThat().resideInAPackage("dev.seckill.sandbox..")
                .check(MAIN);
    }
}
