package dev.seckill.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.DockerException;
import org.awaitility.Awaitility;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;

/**
 * A server of the tests in a container of one of the project's images, on the host's network: it listens on
 * 127.0.0.1 on a port the test chose, as the process it replaces did, so the instances the tests start (processes
 * on this machine) and the other containers reach it there, and a server announces the address a client can reach
 * (a Sentinel its replicas, a cluster node its peers). The image is only where the binary comes from: the command
 * line and the configuration are the test's, written to a folder mounted at the same path inside, which also
 * keeps the data across a kill and a {@link #startAgain()}.
 * <p>
 * Faults are what a container has: {@link #kill()} ({@code docker kill -s KILL}), {@link #pause()} (the cgroup
 * freezer: the process keeps its sockets open and answers nothing, as a SIGSTOPped one), and {@link #startAgain()}
 * (the same container, so the same command line and folder, started again).
 */
public final class HostContainer extends GenericContainer<HostContainer> {

    private final String name;
    private boolean keptForTheRun;
    private int port;

    /** {@code image}, e.g. {@link Docker#REDIS}; checked to exist (never pulled: see {@link Docker#image}). */
    public HostContainer(String image, String name) {
        super(Docker.image(image));
        this.name = name;
        withNetworkMode("host");
        withImagePullPolicy(imageName -> false);
        withLabel(Docker.OWNER_LABEL, Docker.OWNER);
    }

    /**
     * Mounts {@code dir} at the same path inside and runs the server as the folder's owner, so that what it writes
     * there (an AOF, a rewritten config, its log) belongs to whoever runs the tests.
     */
    public HostContainer withFolder(Path dir) {
        try {
            Object uid = Files.getAttribute(dir, "unix:uid");
            Object gid = Files.getAttribute(dir, "unix:gid");
            withFileSystemBind(dir.toString(), dir.toString(), BindMode.READ_WRITE);
            withCreateContainerCmdModifier(cmd -> cmd.withUser(uid + ":" + gid));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the owner of " + dir, e);
        }
        return this;
    }

    /**
     * A server of the whole test JVM ({@link TestServers}): {@link #close()} leaves it running, since Spring Boot
     * closes a container bean with the context that declared it, and other contexts and instances still use it.
     * Testcontainers removes it when the JVM exits.
     */
    public HostContainer keptForTheRun() {
        keptForTheRun = true;
        return this;
    }

    @Override
    public void close() {
        if (!keptForTheRun) {
            super.close();
        }
    }

    /** The command line, in place of the image's entrypoint. */
    public HostContainer running(String... command) {
        withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint(command[0]));
        String[] args = new String[command.length - 1];
        System.arraycopy(command, 1, args, 0, args.length);
        withCommand(args);
        return this;
    }

    /**
     * The port the server listens on, on 127.0.0.1: what {@link #getMappedPort} answers whatever it is asked for
     * (Spring Boot's service connections ask for the image's usual port, 6379 for a Redis).
     */
    public HostContainer listeningOn(int port) {
        this.port = port;
        return this;
    }

    @Override
    public Integer getMappedPort(int originalPort) {
        if (port == 0) {
            throw new IllegalStateException(name + ": no port given (listeningOn)");
        }
        return port;
    }

    @Override
    public String getHost() {
        return "127.0.0.1";
    }

    /** {@code docker kill -s KILL}; returns once the container has stopped. Its folder stays. */
    public void kill() {
        docker().killContainerCmd(getContainerId()).withSignal("KILL").exec();
        Awaitility.await(name + " stopped").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> !Boolean.TRUE.equals(state().getRunning()));
    }

    /** {@code docker pause}: every process of the container frozen, its connections open. */
    public void pause() {
        docker().pauseContainerCmd(getContainerId()).exec();
    }

    /** {@code docker unpause} after {@link #pause()}: it reads what piled up on its connections. */
    public void unpause() {
        if (Boolean.TRUE.equals(state().getPaused())) {
            docker().unpauseContainerCmd(getContainerId()).exec();
        }
    }

    /** {@code docker start} of the same container after {@link #kill()}: same command line, same folder. */
    public void startAgain() {
        if (Boolean.TRUE.equals(state().getRunning())) {
            throw new IllegalStateException(name + " still runs");
        }
        docker().startContainerCmd(getContainerId()).exec();
    }

    public boolean running() {
        return Boolean.TRUE.equals(state().getRunning());
    }

    /**
     * Runs {@code command} inside (e.g. redis-cli); its output, stdout then stderr, trimmed. While the container is
     * stopped or paused, the engine's refusal instead, as a client would get "connection refused" or no answer.
     */
    public String cli(List<String> command) throws IOException, InterruptedException {
        try {
            ExecResult result = execInContainer(command.toArray(String[]::new));
            return (result.getStdout() + result.getStderr()).replace("\r", "").trim();
        } catch (DockerException | IllegalStateException refused) {
            return "(" + name + ": " + refused.getMessage().trim() + ")";
        }
    }

    /** Unpaused first: a frozen container would not act on the stop. */
    @Override
    public void stop() {
        if (getContainerId() != null) {
            try {
                unpause();
            } catch (RuntimeException gone) {
                // removed below anyway
            }
        }
        super.stop();
    }

    private InspectContainerResponse.ContainerState state() {
        return docker().inspectContainerCmd(getContainerId()).exec().getState();
    }

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
    }

    @Override
    public boolean equals(Object other) {
        return this == other;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
