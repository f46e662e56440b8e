package dev.seckill.shopper.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Sign in as a new test shopper" mints shoppers for anyone who can reach the page, so it is on only where nobody
 * else can: an instance that listens on loopback, for clients on the same machine; and no file that starts a
 * deployment turns it on. {@code PageSecurityIT} starts an instance that breaks the rule and sees it refuse.
 */
class TestShoppersTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", " 127.0.0.1 "})
    void onIsAllowedOnALoopbackAddress(String address) {
        assertThat(TestShoppers.refusal(true, address)).isNull();
    }

    @Test
    void onIsRefusedWhereverTheInstanceListensBeyondThisMachine() {
        for (String address : new String[] {null, "", " ", "0.0.0.0", "::", "192.168.1.10", "10.0.0.5", "203.0.113.9",
                "no-such-host.invalid"}) {
            assertThat(TestShoppers.refusal(true, address)).as(String.valueOf(address))
                    .contains("seckill.sign-in.test-shoppers").contains("SERVER_ADDRESS");
        }
    }

    @Test
    void offAsksNothingOfTheAddress() {
        assertThat(TestShoppers.refusal(false, null)).isNull();
        assertThat(TestShoppers.refusal(false, "0.0.0.0")).isNull();
    }

    @Test
    void onlyAClientOnThisMachineIsOfferedOne() {
        assertThat(List.of("127.0.0.1", "127.9.8.7", "::1", "0:0:0:0:0:0:0:1"))
                .allSatisfy(client -> assertThat(TestShoppers.isLoopbackClient(client)).as(client).isTrue());
        // a forwarded header is not always an address: a name is never looked up, and never counts
        assertThat(List.of("203.0.113.9", "10.0.0.1", "::ffff:203.0.113.9", "localhost", "unknown", "", "127.0.0.1.evil"))
                .allSatisfy(client -> assertThat(TestShoppers.isLoopbackClient(client)).as(client).isFalse());
        assertThat(TestShoppers.isLoopbackClient(null)).isFalse();
    }

    /** What a deployment starts from: compose, the image, and every profile of application*.yml. */
    @Test
    void noDeploymentFileTurnsItOn() throws IOException {
        assertThat(Files.readString(Path.of("docker-compose.yml"))).doesNotContainIgnoringCase("TEST_SHOPPERS")
                .doesNotContainIgnoringCase("test-shoppers");
        for (Path dockerfile : List.of(Path.of("docker/app/Dockerfile"), Path.of("docker/app/entrypoint"))) {
            assertThat(Files.readString(dockerfile)).as(dockerfile.toString()).doesNotContainIgnoringCase("TEST_SHOPPERS")
                    .doesNotContainIgnoringCase("test-shoppers");
        }
        try (Stream<Path> files = Files.list(Path.of("src/main/resources"))) {
            for (Path yml : files.filter(f -> f.getFileName().toString().matches("application.*\\.ya?ml")).toList()) {
                for (String line : Files.readAllLines(yml)) {
                    if (line.contains("test-shoppers")) {
                        assertThat(line.strip()).as(yml + ": off unless the environment says on")
                                .isEqualTo("test-shoppers: ${SECKILL_SIGN_IN_TEST_SHOPPERS:false}");
                    }
                }
            }
        }
    }
}
