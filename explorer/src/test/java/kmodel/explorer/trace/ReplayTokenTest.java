package kmodel.explorer.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.explorer.search.Schedule;
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

    /** {@code km1.<payload>.<crc>} around any bytes: the checksum fits, whatever they claim. */
    static String seal(byte[] raw, byte[] trailer) {
        java.util.zip.Deflater d = new java.util.zip.Deflater();
        d.setInput(raw);
        d.finish();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        out.write(trailer, 0, trailer.length);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(raw);
        return "km1." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray()) + "."
                + String.format("%08x", crc.getValue());
    }

    static String seal(int... raw) {
        byte[] b = new byte[raw.length];
        for (int i = 0; i < raw.length; i++) {
            b[i] = (byte) raw[i];
        }
        return seal(b, new byte[0]);
    }

    /** version 1, scenario "s", config "" and then {@code rest}. */
    private static String sealAfterHeader(int... rest) {
        int[] raw = new int[6 + rest.length];
        raw[0] = 1;
        raw[1] = 0;
        raw[2] = 1;
        raw[3] = 's';
        raw[4] = 0;
        raw[5] = 0;
        System.arraycopy(rest, 0, raw, 6, rest.length);
        return seal(raw);
    }

    @Test
    void aForgedHeaderThatFitsDecodes() {
        ReplayToken t = ReplayToken.decode(sealAfterHeader(2, 0, 1));
        assertEquals("s", t.scenario());
        assertArrayEquals(new int[] {0, 1}, t.schedule().toArray());
    }

    @Test
    void aDecisionCountBeyondTheBytesThatFollowIsRefusedBeforeAllocating() {
        // 2^31 - 1 as a varint: ff ff ff ff 07. The old decoder allocated new int[2^31 - 1]: OutOfMemoryError.
        assertEquals("malformed replay token: it claims 2147483647 decisions but only 1 bytes follow",
                reject(sealAfterHeader(0xff, 0xff, 0xff, 0xff, 0x07, 0)));
    }

    @Test
    void aNumberBeyondThirtyOneBitsIsRefusedNotWrapped() {
        // ff ff ff ff 0f is 2^32 - 1; the old decoder read it as -1 or, with other top bits, wrapped it silently.
        assertTrue(reject(sealAfterHeader(0xff, 0xff, 0xff, 0xff, 0x0f)).contains("out of range (4294967295)"));
        assertTrue(reject(sealAfterHeader(0x80, 0x80, 0x80, 0x80, 0x80, 0x00)).contains("longer than five bytes"));
    }

    @Test
    void anOverlongNumberIsRefused() {
        // 80 00 is a second spelling of 0: the decoded token would encode differently.
        assertTrue(reject(sealAfterHeader(0x80, 0x00)).contains("not in the form kmodel writes"));
    }

    @Test
    void aStringLengthBeyondThePayloadIsRefused() {
        assertEquals("malformed replay token: the scenario name claims 65535 bytes but only 2 follow",
                reject(seal(1, 0xff, 0xff, 'a', 'b')));
    }

    @Test
    void aNameThatIsNotPrintableAsciiIsRefused() {
        assertTrue(reject(seal(1, 0, 2, 's', '\n', 0, 0, 0)).contains("not printable ASCII (0xa)"));
        assertTrue(reject(seal(1, 0, 2, 0xc3, 0xa9, 0, 0, 0)).contains("not printable ASCII (0xc3)"));
    }

    @Test
    void bytesAfterTheCompressedStreamAreRefused() {
        String token = seal(new byte[] {1, 0, 1, 's', 0, 0, 0}, new byte[] {0});
        assertEquals("malformed replay token: 1 bytes after the end of the compressed payload", reject(token));
    }

    @Test
    void aDecompressionBombIsRefusedAtTheLimit() {
        String bomb = seal(new byte[ReplayToken.MAX_RAW_BYTES + 1], new byte[0]);
        assertTrue(bomb.length() < 2048, "a megabyte of zeros deflates to about a kilobyte");
        assertEquals("malformed replay token: payload inflates to more than 1048576 bytes", reject(bomb));
    }

    @Test
    void controlCharactersInAnEchoedTokenAreEscaped() {
        assertEquals("malformed replay token: expected km1.<payload>.<checksum>, got 'a\\u000ab\\u001bc'",
                reject("a\nb\u001bc"));
    }
}
