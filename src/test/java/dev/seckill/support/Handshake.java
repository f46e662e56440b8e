package dev.seckill.support;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.altcha.altcha.Altcha;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The purchase handshake as a shopper's browser does it: fetch the voucher's challenge, solve it (ALTCHA's own
 * solver, as its widget runs it), spend the solution on a ticket.
 */
public final class Handshake {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Handshake() {
    }

    /** {@code GET /seckill/{id}/challenge} as this shopper, expecting 200. */
    public static JsonNode challenge(Api api, long voucherId, String token) {
        return api.get("/seckill/" + voucherId + "/challenge", "Authorization", "Bearer " + token).expectStatus(200).json();
    }

    /** The widget's payload for a solved challenge: base64 of its JSON. */
    public static String solve(JsonNode challenge) {
        try {
            Altcha.Solution solution = Altcha.solveChallenge(challenge.path("challenge").asString(),
                    challenge.path("salt").asString(), Altcha.Algorithm.SHA256, challenge.path("maxnumber").asLong(), 0);
            if (solution == null) {
                throw new AssertionError("ALTCHA found no solution for " + challenge);
            }
            ObjectNode payload = JSON.createObjectNode()
                    .put("algorithm", challenge.path("algorithm").asString())
                    .put("challenge", challenge.path("challenge").asString())
                    .put("number", solution.number)
                    .put("salt", challenge.path("salt").asString())
                    .put("signature", challenge.path("signature").asString());
            return Base64.getEncoder().encodeToString(JSON.writeValueAsString(payload).getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException("could not solve " + challenge, e);
        }
    }

    /** {@code POST /seckill/{id}/ticket} with this solution (null: none), whatever it answers. */
    public static Api.Response ticket(Api api, long voucherId, String token, String solution) {
        String body = solution == null ? null : JSON.createObjectNode().put("solution", solution).toString();
        return api.post("/seckill/" + voucherId + "/ticket", body, "Authorization", "Bearer " + token);
    }

    /** Challenge, solution and ticket: the ticket, or an AssertionError naming what refused it. */
    public static String ticketFor(Api api, long voucherId, String token) {
        return ticket(api, voucherId, token, solve(challenge(api, voucherId, token))).expectStatus(200).json()
                .path("ticket").asString();
    }

    /** {@code POST /seckill/{id}} carrying a ticket. */
    public static Api.Response buy(Api api, long voucherId, String token, String ticket) {
        return api.post("/seckill/" + voucherId, null, "Authorization", "Bearer " + token, "Seckill-Ticket", ticket);
    }
}
