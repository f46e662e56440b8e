package dev.seckill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.modulith.docs.Documenter;
import org.springframework.modulith.docs.Documenter.DiagramOptions;
import org.springframework.modulith.docs.Documenter.DiagramOptions.DiagramStyle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/modules/modules.puml is the module diagram Spring Modulith draws from the code, kept up to date: this
 * fails when the modules or their dependencies changed and the committed diagram did not. To redraw it (and
 * its PNG): {@code scripts/module-diagram}.
 */
class ModuleDiagramTest {

    static final Path COMMITTED = Path.of("docs/modules/modules.puml");

    @Test
    void theCommittedDiagramIsTheOneTheCodeDraws(@TempDir Path out) throws IOException {
        new Documenter(ModuleBoundariesTest.MODULES, Documenter.Options.defaults().withOutputFolder(out.toString()))
                .writeModulesAsPlantUml(DiagramOptions.defaults().withStyle(DiagramStyle.UML));
        String drawn = Files.readString(out.resolve("components.puml"));
        if (Boolean.getBoolean("modules.write")) {
            Files.createDirectories(COMMITTED.getParent());
            Files.writeString(COMMITTED, drawn);
        }
        assertThat(COMMITTED).as("docs/modules/modules.puml; redraw it with scripts/module-diagram").exists();
        // The same lines: Documenter lists the relationships in no fixed order.
        assertThat(Files.readString(COMMITTED).lines().sorted().toList()).isEqualTo(drawn.lines().sorted().toList());
    }
}
