package dev.seckill.sandbox;

import java.time.Duration;
import java.time.Instant;

import dev.seckill.payment.WebhookSignature;
import dev.seckill.payment.WebhookSignature.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The signature the sandbox puts on each notification ({@link NotificationSigner}), as the shop's webhook checks it. */
class SandboxSignatureTest {

    static final String SECRET = "sandbox-test-secret-0123456789";
    static final String BODY = "{\"id\":\"evt_1\",\"type\":\"payment.succeeded\"}";
    static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");
    static final Duration TOLERANCE = Duration.ofMinutes(5);

    final WebhookSignature signature = new WebhookSignature(SECRET);

    @Test
    void aSignedBodyVerifiesWithinTheTolerance() {
        String header = new NotificationSigner(SECRET).sign(BODY, AT);
        assertThat(header).isEqualTo(signature.sign(BODY, AT));
        assertThat(header).matches("t=\\d+,v1=[0-9a-f]{64}");
        assertThat(signature.verify(header, BODY, AT, TOLERANCE)).isEqualTo(Verdict.VALID);
        assertThat(signature.verify(header, BODY, AT.plus(TOLERANCE), TOLERANCE)).isEqualTo(Verdict.VALID);
    }

    @Test
    void aChangedBodyOrAnotherSecretIsWrong() {
        String header = signature.sign(BODY, AT);
        assertThat(signature.verify(header, BODY.replace("succeeded", "canceled"), AT, TOLERANCE)).isEqualTo(Verdict.WRONG);
        assertThat(new WebhookSignature(SECRET + "x").verify(header, BODY, AT, TOLERANCE)).isEqualTo(Verdict.WRONG);
        // the time is signed too: moving it within the tolerance breaks the signature
        String movedTime = header.replace("t=" + AT.getEpochSecond(), "t=" + (AT.getEpochSecond() + 1));
        assertThat(signature.verify(movedTime, BODY, AT, TOLERANCE)).isEqualTo(Verdict.WRONG);
    }

    @Test
    void anOldSignatureIsStaleEvenWhenItsMacIsRight() {
        String header = signature.sign(BODY, AT);
        assertThat(signature.verify(header, BODY, AT.plus(TOLERANCE).plusSeconds(1), TOLERANCE)).isEqualTo(Verdict.STALE);
        assertThat(signature.verify(header, BODY, AT.minus(TOLERANCE).minusSeconds(1), TOLERANCE)).isEqualTo(Verdict.STALE);
    }

    @Test
    void garbageIsMalformed() {
        assertThat(signature.verify(null, BODY, AT, TOLERANCE)).isEqualTo(Verdict.MALFORMED);
        assertThat(signature.verify("", BODY, AT, TOLERANCE)).isEqualTo(Verdict.MALFORMED);
        assertThat(signature.verify("garbage", BODY, AT, TOLERANCE)).isEqualTo(Verdict.MALFORMED);
        assertThat(signature.verify("t=abc,v1=00", BODY, AT, TOLERANCE)).isEqualTo(Verdict.MALFORMED);
        assertThat(signature.verify("t=1,v1=zz", BODY, AT, TOLERANCE)).isEqualTo(Verdict.MALFORMED);
        assertThat(signature.verify("t=" + AT.getEpochSecond(), BODY, AT, TOLERANCE)).isEqualTo(Verdict.MALFORMED);
    }

    @Test
    void aShortSecretIsRefused() {
        assertThatThrownBy(() -> new WebhookSignature("short")).isInstanceOf(IllegalArgumentException.class);
    }
}
