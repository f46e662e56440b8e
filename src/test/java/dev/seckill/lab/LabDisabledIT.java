package dev.seckill.lab;

import java.util.Arrays;

import dev.seckill.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the default settings the lab does not exist: an admin reaching for it gets the 404 of any path that is no
 * part of the API, and the application holds no bean of it (its naive locks cannot run in a real sale).
 */
class LabDisabledIT extends IntegrationTest {

    @Autowired
    ApplicationContext context;

    @Test
    void theLabIsUnreachableWithTheDefaultSettings() {
        api.asAdmin("GET", "/admin/lab/strategies", null).expectProblem(404, "not-found");
        api.asAdmin("POST", "/admin/lab/runs", """
                {"strategy":"none","fault":"none","stock":10}""").expectProblem(404, "not-found");
        api.asAdmin("POST", "/admin/lab/runs/any/deductions", null).expectProblem(404, "not-found");

        assertThat(Arrays.stream(context.getBeanDefinitionNames()).map(context::getType)
                .filter(type -> type != null && (type.getPackageName().startsWith("dev.seckill.lab")
                        || type.getSimpleName().startsWith("Lab"))).toList())
                .as("beans of the lab").isEmpty();
    }
}
