package kmodel.verification.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.verification.explore.Schedule;
import org.junit.jupiter.api.Test;

class ReplayTokenTest {
    private static final String GOOD = new ReplayToken("textbook-waitqueue", "bug=textbook-check-then-sleep",
            Schedule.of(new int[] {0, 1, 2, 300, 70000})).encode();

    @Test
    void roundTripsScenarioConfigAndSchedule() {
        ReplayToken t = ReplayToken.decode(GOOD);
        assertEquals("textbook-waitqueue", t.scenario());
        assertEquals("bug=textbook-check-then-sleep", t.config());
        assertArrayEquals(new int[] {0, 1, 2, 300, 70000}, t.schedule().toArray());
    }

    private static String reject(String token) {
        ReplayToken.MalformedTokenException e = assertThrows(ReplayToken.MalformedTokenException.class,
                () -> ReplayToken.decode(token));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        return e.getMessage();
    }

    @Test
    void aWrongPrefixIsRejectedInOneLine() {
        assertTrue(reject("garbage").contains("expected km1."));
    }

    @Test
    void aDamagedChecksumIsRejected() {
        String bad = GOOD.substring(0, GOOD.length() - 1) + (GOOD.endsWith("0") ? "1" : "0");
        assertTrue(reject(bad).contains("checksum"));
    }

    @Test
    void aTruncatedPayloadIsRejected() {
        String[] p = GOOD.split("\\.");
        reject(p[0] + "." + p[1].substring(0, p[1].length() / 2) + "." + p[2]);
    }

    @Test
    void aPayloadThatIsNotBase64IsRejected() {
        assertTrue(reject("km1.!!!!.00000000").contains("base64"));
    }
}
