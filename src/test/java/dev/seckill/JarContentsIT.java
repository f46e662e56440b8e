package dev.seckill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What {@code package} built (this runs after it): the shop's jar holds no fixture (no class or page of the sandbox
 * provider, no class or script of the lock lab); the sandbox's jar holds the sandbox and nothing else of ours, started
 * by its own main class; the lab's jar holds the lab alone.
 */
class JarContentsIT {

    static final Path PLATFORM = Path.of("target/seckill-platform.jar");
    static final Path SANDBOX = Path.of("target/seckill-sandbox.jar");
    static final Path LAB = Path.of("target/seckill-platform-lab.jar");
    static final List<String> FIXTURES = List.of("dev/seckill/sandbox/", "templates/sandbox/", "dev/seckill/lab/", "lab/");

    @Test
    void theShopsJarHoldsNeitherTheSandboxNorTheLab() throws IOException {
        List<String> entries = entries(PLATFORM);
        assertThat(entries).as("classes of the shop").contains("BOOT-INF/classes/dev/seckill/SeckillApplication.class");
        assertThat(entries).filteredOn(name -> FIXTURES.stream().anyMatch(fixture -> name.startsWith("BOOT-INF/classes/" + fixture)))
                .isEmpty();
    }

    @Test
    void theLabsJarHoldsTheLabAlone() throws IOException {
        List<String> files = entries(LAB).stream().filter(name -> !name.startsWith("META-INF/") && !name.endsWith("/"))
                .toList();
        assertThat(files).contains("dev/seckill/lab/LabRuns.class", "lab/enter.lua");
        assertThat(files).allMatch(name -> name.startsWith("dev/seckill/lab/") || name.startsWith("lab/"));
    }

    @Test
    void theSandboxsJarHoldsOnlyTheSandbox() throws IOException {
        List<String> entries = entries(SANDBOX);
        assertThat(entries).contains("BOOT-INF/classes/dev/seckill/sandbox/SandboxApplication.class",
                "BOOT-INF/classes/dev/seckill/sandbox/sandbox.yml", "BOOT-INF/classes/templates/sandbox/checkout.html");
        assertThat(entries).filteredOn(name -> name.startsWith("BOOT-INF/classes/") && !name.endsWith("/"))
                .allMatch(name -> name.startsWith("BOOT-INF/classes/dev/seckill/sandbox/")
                        || name.startsWith("BOOT-INF/classes/templates/sandbox/"));
        try (JarFile jar = new JarFile(SANDBOX.toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Start-Class"))
                    .isEqualTo("dev.seckill.sandbox.SandboxApplication");
        }
    }

    /** The jar's entry names; the test is skipped when the jar was not built (a run that stopped before package). */
    private static List<String> entries(Path jar) throws IOException {
        assumeTrue(Files.isRegularFile(jar), jar + " was built");
        try (JarFile file = new JarFile(jar.toFile())) {
            return Collections.list(file.entries()).stream().map(ZipEntry::getName).toList();
        }
    }
}
