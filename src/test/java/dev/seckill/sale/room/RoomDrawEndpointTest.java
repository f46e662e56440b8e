package dev.seckill.sale.room;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.LongStream;
import java.util.zip.GZIPInputStream;

import dev.seckill.web.WebSlice;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * {@code GET /vouchers/{id}/room/draw}, final once drawn: the same bytes for everyone, gzipped for a client that takes
 * gzip, 304 for one that has them (its ETag), and a public cache may keep them.
 */
@WebSlice(RoomController.class)
class RoomDrawEndpointTest {

    static final long VOUCHER = 7;
    static final Instant OPENS = Instant.parse("2026-11-29T10:00:00Z");

    @Autowired
    MockMvc mvc;

    @Autowired
    JsonMapper mapper;

    @MockitoBean
    WaitingRooms rooms;

    PublishedDraws.PublishedDraw published;

    @BeforeEach
    void aDrawOfTwentyThousand() {
        List<String> entrants = LongStream.range(0, 20_000).mapToObj(i -> Long.toString(120_000_000_000_000_000L + i * 7_919))
                .toList();
        RoomDraw draw = new RoomDraw(VOUCHER, OPENS, OPENS.plusSeconds(60), "c0ffee", "5eed",
                RoomLottery.entrantsHash(entrants), entrants, RoomDraw.RULE);
        published = PublishedDraws.bounded(mapper, 1_000_000).get(VOUCHER, () -> draw);
        given(rooms.publishedDraw(VOUCHER)).willReturn(published);
    }

    @Test
    void aClientThatTakesGzipGetsTheDrawGzippedWithItsETag() throws Exception {
        MvcResult answer = mvc.perform(get("/vouchers/7/room/draw").header("Accept-Encoding", "br, gzip;q=0.8")).andReturn();

        assertThat(answer.getResponse().getStatus()).isEqualTo(200);
        assertThat(answer.getResponse().getHeader("Content-Encoding")).isEqualTo("gzip");
        assertThat(answer.getResponse().getHeader("ETag")).isEqualTo(published.etag()).startsWith("W/\"");
        assertThat(answer.getResponse().getHeader("Vary")).contains("Accept-Encoding");
        assertThat(answer.getResponse().getHeader("Cache-Control")).contains("public").contains("max-age=300");
        byte[] body = answer.getResponse().getContentAsByteArray();
        assertThat(body.length).as("gzipped, against %d bytes of JSON", published.json().length)
                .isLessThan(published.json().length / 2);
        assertThat(mapper.readTree(gunzip(body)).path("entrants").size()).isEqualTo(20_000);
    }

    @Test
    void aClientThatTakesNoGzipGetsTheJsonAsIs() throws Exception {
        for (String acceptEncoding : new String[] {null, "identity", "gzip;q=0", "br"}) {
            var request = get("/vouchers/7/room/draw");
            if (acceptEncoding != null) {
                request.header("Accept-Encoding", acceptEncoding);
            }
            MvcResult answer = mvc.perform(request).andReturn();
            assertThat(answer.getResponse().getHeader("Content-Encoding")).as(acceptEncoding).isNull();
            assertThat(mapper.readTree(answer.getResponse().getContentAsString(StandardCharsets.UTF_8))
                    .path("seed").asString()).as(acceptEncoding).isEqualTo("5eed");
        }
    }

    @Test
    void aClientThatHasTheDrawIsAnsweredNotModifiedWithoutABody() throws Exception {
        MvcResult answer = mvc.perform(get("/vouchers/7/room/draw").header("If-None-Match", published.etag())
                .header("Accept-Encoding", "gzip")).andReturn();

        assertThat(answer.getResponse().getStatus()).isEqualTo(304);
        assertThat(answer.getResponse().getContentAsByteArray()).isEmpty();
        assertThat(answer.getResponse().getHeader("Vary")).as("as the 200 would say").contains("Accept-Encoding");
        MvcResult stale = mvc.perform(get("/vouchers/7/room/draw").header("If-None-Match", "W/\"another\"")).andReturn();
        assertThat(stale.getResponse().getStatus()).isEqualTo(200);
    }

    @Test
    void theVouchersIdIsReadInItsOneSpellingOnly() throws Exception {
        for (String variant : new String[] {"07", "+7", "0x7", "\u0667"}) {
            MvcResult answer = mvc.perform(get("/vouchers/" + variant + "/room/draw")).andReturn();
            assertThat(answer.getResponse().getStatus()).as(variant).isEqualTo(400);
            assertThat(answer.getResponse().getContentAsString()).as(variant).contains("\"code\":\"invalid-parameter\"");
        }
        assertThat(mvc.perform(get("/vouchers/7/room/draw")).andReturn().getResponse().getStatus()).isEqualTo(200);
    }

    private static byte[] gunzip(byte[] gzipped) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            return in.readAllBytes();
        }
    }
}
