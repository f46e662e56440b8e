package dev.seckill.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP relay between the application and a server, which a test can cut and restore: the server
 * "goes away" (every open connection drops, new ones are refused) without stopping the real one that
 * other tests share. Or it can become a black hole ({@link #blackHole()}): connections stay open and
 * new ones are accepted, but nothing gets through and nothing comes back, as when a server hangs or a
 * firewall starts dropping packets. No reset ever tells the client: only its own timeouts can; and a
 * client that gives up and closes is not seen closing by the server until {@link #forward()}. Or it can lose only the
 * answers ({@link #dropReplies()}): what the client sends reaches the server and is done there, and the client never
 * hears of it.
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final ExecutorService pumps = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "tcp-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** Connections that lost bytes to the black hole (their protocol state is broken) or arrived during it. */
    private final Set<Socket> swallowed = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;
    private volatile boolean blackHole;
    private volatile boolean repliesDropped;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            this.port = probe.getLocalPort();
        }
        restore();
    }

    public int port() {
        return port;
    }

    /** Drops every connection and refuses new ones. */
    public synchronized void cut() throws IOException {
        listener.close();
        for (Socket socket : open) {
            socket.close();
        }
        open.clear();
    }

    /** From now on, swallows everything: open connections go silent, new ones are accepted and ignored. */
    public synchronized void blackHole() {
        blackHole = true;
    }

    /** From now on, forwards what the client sends and swallows what the server answers. */
    public synchronized void dropReplies() {
        repliesDropped = true;
    }

    /**
     * Forwards again. Connections that lost bytes to the black hole (or answers) are closed (no server could
     * continue them; a real client has given up on them by its timeouts anyway); untouched ones live on.
     */
    public synchronized void forward() throws IOException {
        blackHole = false;
        repliesDropped = false;
        for (Socket socket : swallowed) {
            socket.close();
            open.remove(socket);
        }
        swallowed.clear();
    }

    public synchronized void restore() throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress("127.0.0.1", port));
        listener = server;
        pumps.submit(() -> accept(server));
    }

    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (blackHole) {
                    // accepted (the client's connect succeeds) but never read from or answered
                    open.add(client);
                    swallowed.add(client);
                    continue;
                }
                Socket upstream = new Socket(targetHost, targetPort);
                open.add(client);
                open.add(upstream);
                pumps.submit(() -> pump(client, upstream, false));
                pumps.submit(() -> pump(upstream, client, true));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean replies) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (blackHole || (replies && repliesDropped)) {
                    swallowed.add(from);
                    swallowed.add(to);
                    continue;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException dropped) {
            // one side closed or failed: pass it on below
        } finally {
            closeQuietly(from);
            // In the black hole a close does not get through either: the other side (say MySQL, holding the
            // locks of a transaction its client gave up on) learns of it only when forward() closes it.
            synchronized (this) {
                if (blackHole) {
                    swallowed.add(to);
                } else {
                    closeQuietly(to);
                }
            }
        }
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        cut();
        pumps.shutdownNow();
    }
}
