package kmodel.explorer.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kmodel.explorer.search.Schedule;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The token decoder on hostile input, below the command line: whatever the text, and whatever a
 * token with a valid checksum claims, {@link ReplayToken#decode} returns a token that encodes
 * back to the same bytes or throws {@link ReplayToken.MalformedTokenException} with one line of
 * printable text, and nothing else. The command line's fuzzing ({@code CliFuzzProperties} in
 * tools) adds the allocation bound and shows the oracle failing on broken decoders.
 */
class ReplayTokenFuzzProperties {

    /** Decodes {@code text}: the token, or null after checking the refusal is one printable line. */
    private static ReplayToken decodeOrRefuse(String text) {
        try {
            ReplayToken t = ReplayToken.decode(text);
            assertEquals(t.scenario(), ReplayToken.decode(t.encode()).scenario());
            return t;
        } catch (ReplayToken.MalformedTokenException e) {
            String m = e.getMessage();
            assertFalse(m == null || m.isEmpty(), "a reason");
            for (int i = 0; i < m.length(); i++) {
                char c = m.charAt(i);
                assertTrue(c >= 0x20 && c <= 0x7e, () -> "printable ASCII only: " + m);
            }
            return null;
        }
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(60),
                Arbitraries.strings().withChars("km1.ABCDEFabcdef0123456789-_=+/").ofMaxLength(80),
                Arbitraries.strings().withChars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
                        .ofMaxLength(100).map(p -> "km1." + p + ".00000000"));
    }

    @Property(tries = 400, seed = "60621")
    void anyTextDecodesOrIsRefusedInOneLine(@ForAll("texts") String text) {
        decodeOrRefuse(text);
    }

    @Provide
    Arbitrary<byte[]> payloads() {
        Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofMaxSize(120);
        // A plausible header (version 1, scenario "s", config "") followed by noise: reaches the count and decisions.
        Arbitrary<byte[]> headed = noise.map(n -> {
            byte[] b = new byte[6 + n.length];
            b[0] = 1;
            b[2] = 1;
            b[3] = 's';
            System.arraycopy(n, 0, b, 6, n.length);
            return b;
        });
        return Arbitraries.oneOf(noise, headed);
    }

    @Property(tries = 400, seed = "60622")
    void anySealedPayloadDecodesToItsOwnBytesOrIsRefused(@ForAll("payloads") byte[] raw) {
        ReplayToken t = decodeOrRefuse(ReplayTokenTest.seal(raw, new byte[0]));
        if (t != null) {
            // Accepted only in the one spelling encode() writes.
            assertEquals(ReplayTokenTest.seal(raw, new byte[0]).split("\\.")[2], t.encode().split("\\.")[2]);
        }
    }

    @Provide
    Arbitrary<String> editedTokens() {
        Arbitrary<int[]> schedules = Arbitraries.integers().between(0, 1 << 20).array(int[].class).ofMaxSize(50);
        return Combinators.combine(schedules, Arbitraries.integers().between(0, 1 << 16),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 6)).as((s, at, op, bit) -> {
                    String good = new ReplayToken("textbook-waitqueue", "bug=x", Schedule.of(s)).encode();
                    int i = at % good.length();
                    switch (op) {
                        case 0:
                            return good.substring(0, i);
                        case 1:
                            return good.substring(0, i) + (char) (good.charAt(i) ^ (1 << bit)) + good.substring(i + 1);
                        case 2:
                            return good.substring(0, i) + good.substring(i + 1);
                        default:
                            return good.substring(0, i) + good.charAt(i) + good.substring(i);
                    }
                });
    }

    @Property(tries = 400, seed = "60623")
    void anEditedTokenIsRefusedOrDecodesToAValidToken(@ForAll("editedTokens") String token) {
        ReplayToken t = decodeOrRefuse(token);
        if (t != null) {
            // An edit the checksum cannot see (unused low bits of the last base64 character)
            // still decodes to exactly what was encoded.
            assertEquals("textbook-waitqueue", t.scenario());
            assertArrayEquals(ReplayToken.decode(t.encode()).schedule().toArray(), t.schedule().toArray());
        }
    }
}
