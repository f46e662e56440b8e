package dev.seckill.support;

import java.util.HashMap;
import java.util.Map;

import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;

/**
 * The Docker engine the integration tests run their servers in, and the project's images they run: the images of
 * docker-compose.yml, built from the Dockerfiles under docker/ ({@code scripts/test-services}, which the build
 * runs first, builds what is missing), never pulled. What is wrong with either is said in one line that names the
 * fix, and remembered: every later test class fails with the same line, without asking the engine again.
 */
public final class Docker {

    public static final String REDIS = "seckill/redis";
    public static final String MARIADB = "seckill/mariadb";
    public static final String NGINX = "seckill/nginx";
    public static final String CHROMIUM = "seckill/chromium";
    public static final String FAKETIME = "seckill/faketime";

    /**
     * The label every container of the tests carries: the test JVM's process id. Without Ryuk nothing removes the
     * containers of a JVM that was killed; scripts/test-services removes those whose JVM is gone.
     */
    public static final String OWNER_LABEL = "dev.seckill.test.pid";
    static final String OWNER = Long.toString(ProcessHandle.current().pid());

    /** Engine 20.10, the oldest these tests have run on (Debian 12's docker.io). */
    private static final String MIN_API = "1.41";

    private static String engineProblem;
    private static final Map<String, String> imageProblems = new HashMap<>();

    private Docker() {
    }

    /** {@code name}, once the engine answers and has the image; otherwise a {@link NoDocker} naming the fix. */
    public static synchronized DockerImageName image(String name) {
        engine();
        String problem = imageProblems.computeIfAbsent(name, Docker::imageProblem);
        if (!problem.isEmpty()) {
            throw new NoDocker(problem);
        }
        return DockerImageName.parse(name);
    }

    private static void engine() {
        if (engineProblem == null) {
            engineProblem = engineProblem();
        }
        if (!engineProblem.isEmpty()) {
            throw new NoDocker(engineProblem);
        }
    }

    private static String engineProblem() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return "The integration tests run their servers in Docker, and no Docker engine answers: run "
                    + "scripts/test-services (as root on Debian it installs and starts one), or start yours";
        }
        String api = DockerClientFactory.instance().client().versionCmd().exec().getApiVersion();
        if (compare(api, MIN_API) < 0) {
            return "The Docker engine speaks API " + api + ", older than " + MIN_API
                    + " (Docker Engine 20.10), the oldest the tests run on: upgrade it";
        }
        return "";
    }

    private static String imageProblem(String name) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(name).exec();
            return "";
        } catch (NotFoundException missing) {
            return "The image " + name + " is missing: run scripts/test-services, which builds the project's images "
                    + "(docker/build-images)";
        }
    }

    private static int compare(String version, String other) {
        String[] a = version.split("\\.");
        String[] b = other.split("\\.");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int x = i < a.length ? Integer.parseInt(a[i]) : 0;
            int y = i < b.length ? Integer.parseInt(b[i]) : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    /** What is wrong with the engine or an image, in one line and nothing else: no stack trace helps there. */
    public static final class NoDocker extends IllegalStateException {

        NoDocker(String message) {
            super(message);
            setStackTrace(new StackTraceElement[0]);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
