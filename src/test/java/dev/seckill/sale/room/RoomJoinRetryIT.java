package dev.seckill.sale.room;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.seckill.support.Api;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.Nginx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nginx in front of two upstreams, one of which takes each request and dies without answering, as an instance killed
 * -9 mid-request does (a socket that reads the request and closes), the other a real instance. Joining a waiting
 * room is idempotent (joining again answers the place one holds), so Nginx sends a join it lost to the other
 * instance, and the shopper gets their place rather than a 502. A purchase is never sent twice: one that reached the
 * dying upstream is answered 502 (the purchase's own answer for a lost instance, which the pages look up).
 */
class RoomJoinRetryIT extends IntegrationTest {

    static ServerSocket dying;
    static final AtomicInteger taken = new AtomicInteger();
    static Nginx nginx;

    @BeforeEach
    void nginxInFrontOfADyingUpstreamAndThisInstance() throws IOException {
        if (nginx != null) {
            return;
        }
        dying = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(RoomJoinRetryIT::takeAndDie, "dying-upstream");
        acceptor.setDaemon(true);
        acceptor.start();
        nginx = Nginx.start(List.of(dying.getLocalPort(), port), "");
    }

    @AfterAll
    static void stop() throws IOException {
        if (nginx != null) {
            nginx.close();
            nginx = null;
        }
        if (dying != null) {
            dying.close();
        }
    }

    @Test
    void aJoinLostWithItsInstanceIsAnsweredByTheOtherAndAPurchaseIsNotSentTwice() {
        Api edge = new Api(nginx.port());
        Instant opened = Instant.now().minusSeconds(1);
        long voucher = api.createRoomVoucher(5, opened, opened.plusSeconds(3_600), Duration.ofSeconds(60), 5);
        List<String> buyers = api.mintShoppers(6);
        List<String> joiners = api.mintShoppers(6);

        // Nginx's first request goes to the first upstream, the dying one: a purchase is not sent on.
        Api.Response purchase = null;
        for (int i = 0; i < buyers.size() && taken.get() == 0; i++) {
            purchase = edge.seckill(voucher, buyers.get(i));
        }
        assertThat(taken.get()).as("a purchase the dying upstream took").isEqualTo(1);
        purchase.expectProblem(502, "instance-unavailable");

        // Until Nginx marks it down (3 failures), every other request goes to it first: joins that it takes are sent
        // on to the instance and answered.
        for (String token : joiners) {
            edge.post("/seckill/" + voucher + "/room", null, "Authorization", "Bearer " + token).expectStatus(200);
        }
        assertThat(taken.get()).as("joins the dying upstream took before Nginx sent them on").isGreaterThan(1);
    }

    /** Reads each request's head, then closes without a word. */
    private static void takeAndDie() {
        while (!dying.isClosed()) {
            try (Socket socket = dying.accept()) {
                InputStream in = socket.getInputStream();
                int last4 = 0;
                for (int b = in.read(); b >= 0; b = in.read()) {
                    last4 = (last4 << 8) | b;
                    if (last4 == 0x0d0a0d0a) {
                        break;
                    }
                }
                taken.incrementAndGet();
            } catch (IOException closed) {
                // the test is over, or Nginx gave up on the connection
            }
        }
    }
}
