package dev.seckill.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;

/**
 * A real Nginx ({@link Docker#NGINX}'s, in a {@link HostContainer}) in front of a test instance, with the
 * repository's own rules (nginx/seckill-http.conf,
 * seckill-server.conf, proxy.conf, proxy-headers.conf) and only the upstreams (the instance, and this JVM's {@link SandboxProvider} for
 * /sandbox/), the port, the server's name and the exempt addresses of its own, so what the tests prove is what the
 * cluster runs. Like the cluster, it leaves 127.0.0.1 out of the
 * per-IP limits; a test that wants to be limited connects from another loopback address.
 */
public final class Nginx implements AutoCloseable {

    private final HostContainer container;
    private final int port;

    private Nginx(HostContainer container, int port) {
        this.container = container;
        this.port = port;
    }

    /** Nginx on a free port, proxying to {@code upstreamPort}; {@code serverExtra} goes into its server block. */
    public static Nginx start(int upstreamPort, String serverExtra) {
        return start(List.of(upstreamPort), serverExtra);
    }

    /** /sandbox/ to the JVM's shared {@link SandboxProvider}. */
    public static Nginx start(List<Integer> upstreamPorts, String serverExtra) {
        return start(upstreamPorts, SandboxProvider.PORT, serverExtra);
    }

    /** In front of several instances, balanced and failed over as the cluster's own Nginx does. */
    /** /sandbox/ to the sandbox provider on {@code sandboxPort}. */
    public static Nginx start(List<Integer> upstreamPorts, int sandboxPort, String serverExtra) {
        try {
            Path repoNginx = Path.of("nginx").toAbsolutePath();
            Path prefix = Files.createTempDirectory("seckill-nginx");
            Files.createDirectories(prefix.resolve("logs"));
            Files.createDirectories(prefix.resolve("temp"));
            // nginx started as root runs its workers as nobody: they must reach the temp folder
            Files.setPosixFilePermissions(prefix, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(prefix.resolve("temp"), PosixFilePermissions.fromString("rwxrwxrwx"));
            // includes resolve against the main file's folder: put the repository's files beside it
            for (String shared : List.of("seckill-http.conf", "seckill-server.conf", "proxy.conf", "proxy-headers.conf")) {
                Files.copy(repoNginx.resolve(shared), prefix.resolve(shared));
            }
            int port = freePort();
            Path config = prefix.resolve("nginx.conf");
            Files.writeString(config, """
                    worker_processes 1;
                    pid logs/nginx.pid;
                    error_log logs/error.log warn;
                    events { worker_connections 1024; }
                    http {
                        default_type application/json;
                        server_tokens off;
                        access_log off;
                        client_body_temp_path temp/client_body;
                        proxy_temp_path temp/proxy;
                        fastcgi_temp_path temp/fastcgi;
                        uwsgi_temp_path temp/uwsgi;
                        scgi_temp_path temp/scgi;
                        geo $seckill_limit_exempt { default 0; 127.0.0.1 1; }
                        include seckill-http.conf;
                        proxy_read_timeout 30s;
                        upstream seckill {
                            %2$s
                            keepalive 16;
                        }
                        upstream seckill_sandbox {
                            server 127.0.0.1:%5$d max_fails=0;
                        }
                        server {
                            listen 127.0.0.1:%3$d;
                            server_name localhost;
                            %4$s
                            include seckill-server.conf;
                        }
                    }
                    """.formatted("", servers(upstreamPorts), port, serverExtra, sandboxPort), StandardCharsets.UTF_8);
            // in the foreground, the container's main process; -e: not the image's /var/log/nginx before the config
            HostContainer container = new HostContainer(Docker.NGINX, "nginx :" + port).listeningOn(port)
                    .withFolder(prefix).running("nginx", "-p", prefix + "/", "-c", config.toString(),
                            "-e", prefix.resolve("logs/error.log").toString(), "-g", "daemon off;");
            container.start();
            Nginx nginx = new Nginx(container, port);
            try {
                Awaitility.await("nginx listens on " + port).atMost(Duration.ofSeconds(10))
                        .until(() -> listening(port));
            } catch (RuntimeException e) {
                container.stop();
                throw new IllegalStateException("nginx did not start: " + Files.readString(prefix.resolve("logs/error.log")), e);
            }
            return nginx;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public int port() {
        return port;
    }

    private static String servers(List<Integer> ports) {
        // one instance: never marked down (a test may stop it on purpose); several: as nginx/docker.conf, with
        // the same again as backups, never marked down
        if (ports.size() == 1) {
            return "server 127.0.0.1:" + ports.get(0) + " max_fails=0;";
        }
        return String.join("\n", ports.stream().map(p -> "server 127.0.0.1:" + p + " max_fails=3 fail_timeout=5s;").toList())
                + "\n" + String.join("\n", ports.stream().map(p -> "server 127.0.0.1:" + p + " backup max_fails=0;").toList());
    }

    /** Removes the container (SIGKILL: no request of a test is in flight when it closes its Nginx). */
    @Override
    public void close() {
        container.stop();
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean listening(int port) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
