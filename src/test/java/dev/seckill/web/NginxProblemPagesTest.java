package dev.seckill.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * nginx/seckill-server.conf read as text, for what no request in EdgeIT reaches (Nginx's 500, a 503): every
 * error_page leads to one of its problem pages, each an internal problem+json body whose status is the one it
 * answers with and whose code docs/api.md lists; and every location that passes requests to the instances has a
 * per-address limit, so a route added later cannot be a door without one.
 */
class NginxProblemPagesTest {

    static final Path CONF = Path.of("nginx/seckill-server.conf");
    static final Pattern LOCATION = Pattern.compile("(?m)^location\\s+(=\\s+)?(\\S+)\\s*\\{(.*?)^}", Pattern.DOTALL);
    static final Pattern ERROR_PAGE = Pattern.compile("(?m)^error_page\\s+([^;]+?)\\s+(/\\S+);");
    static final Pattern RETURN = Pattern.compile("return\\s+(\\d{3})\\s+'(.*)\\\\n';");

    static String conf;
    /** location path -> its block */
    static Map<String, String> locations = new LinkedHashMap<>();

    @BeforeAll
    static void read() throws IOException {
        conf = Files.readString(CONF);
        Matcher location = LOCATION.matcher(conf);
        while (location.find()) {
            locations.put(location.group(2), location.group(3));
        }
        assertThat(locations).containsKeys("/", "/seckill/", "/admin", "/actuator");
    }

    @Test
    void everyErrorPageIsAnInternalProblemWithADocumentedCode() throws IOException {
        String api = Files.readString(Path.of("docs/api.md"));
        JsonMapper json = JsonMapper.builder().build();
        Matcher errorPage = ERROR_PAGE.matcher(conf);
        int pages = 0;
        while (errorPage.find()) {
            pages++;
            List<String> statuses = List.of(errorPage.group(1).split("\\s+"));
            String answered = statuses.stream().filter(s -> s.startsWith("=")).map(s -> s.substring(1)).findFirst()
                    .orElse(statuses.get(0));
            String uri = errorPage.group(2);
            String block = locations.get(uri);
            assertThat(block).as("the location of error_page %s %s", errorPage.group(1), uri).isNotNull();
            assertThat(block).as(uri).contains("internal;").contains("default_type application/problem+json;")
                    .contains("add_header X-Instance-Id nginx always;");
            Matcher returned = RETURN.matcher(block);
            assertThat(returned.find()).as("%s returns a body", uri).isTrue();
            JsonNode problem = json.readTree(returned.group(2));
            if (!statuses.contains("502")) {
                // 502 and 503 share one page, answered 502
                assertThat(returned.group(1)).as(uri).isEqualTo(answered);
            }
            assertThat(problem.path("status").asInt()).as(uri).isEqualTo(Integer.parseInt(returned.group(1)));
            assertThat(problem.path("title").asString("")).as(uri).isNotBlank();
            assertThat(problem.path("detail").asString("")).as(uri).isNotBlank();
            String code = problem.path("code").asString("");
            assertThat(api).as("docs/api.md lists the code of %s", uri).contains("`" + code + "`");
        }
        assertThat(pages).isGreaterThanOrEqualTo(12);
    }

    @Test
    void everyLocationThatReachesTheInstancesHasAPerAddressLimit() {
        locations.forEach((path, block) -> {
            if (block.contains("include proxy.conf;")) {
                assertThat(block).as("location %s", path).containsPattern("limit_req\\s+zone=\\w+_per_ip");
            }
        });
    }
}
