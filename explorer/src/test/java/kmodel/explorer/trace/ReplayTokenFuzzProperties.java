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
 * back to the same bytes (and, for an edited token, the very token that was edited) or throws {@link ReplayToken.MalformedTokenException} with one line of
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

    /** A valid token's schedule and the token's text after one edit. */
    static final class Edited {
        final int[] schedule;
        final String token;

        Edited(int[] schedule, String token) {
            this.schedule = schedule;
            this.token = token;
        }

        @Override
        public String toString() {
            return token + " (edited from the schedule " + java.util.Arrays.toString(schedule) + ")";
        }
    }

    static final String EDITED_SCENARIO = "textbook-waitqueue";
    static final String EDITED_CONFIG = "bug=x";

    /** One edit (truncation, bit flip, deletion, doubling) of a character of {@code good}, or ({@code op} 4) none. */
    static String edit(String good, int at, int op, int bit) {
        int i = at % good.length();
        switch (op) {
            case 0:
                return good.substring(0, i);
            case 1:
                return good.substring(0, i) + (char) (good.charAt(i) ^ (1 << bit)) + good.substring(i + 1);
            case 2:
                return good.substring(0, i) + good.substring(i + 1);
            case 3:
                return good.substring(0, i) + good.charAt(i) + good.substring(i);
            default: // no edit: the accepted side of the oracle is exercised too
                return good;
        }
    }

    @Provide
    Arbitrary<Edited> editedTokens() {
        Arbitrary<int[]> schedules = Arbitraries.integers().between(0, 1 << 20).array(int[].class).ofMaxSize(50);
        return Combinators.combine(schedules, Arbitraries.integers().between(0, 1 << 16),
                Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 6)).as((s, at, op, bit) ->
                        new Edited(s, edit(new ReplayToken(EDITED_SCENARIO, EDITED_CONFIG, Schedule.of(s)).encode(), at,
                                op, bit)));
    }

    /**
     * An edited token is refused, or (an edit the checksum cannot see: the unused low bits of the
     * last base64 character) decodes to exactly the token that was edited: its scenario, its
     * configuration and the schedule it was made from, not merely to something that encodes back
     * to itself.
     */
    static void refusedOrTheEditedOne(Edited e) {
        ReplayToken t = decodeOrRefuse(e.token);
        if (t != null) {
            assertEquals(EDITED_SCENARIO, t.scenario(), e::toString);
            assertEquals(EDITED_CONFIG, t.config(), e::toString);
            assertArrayEquals(e.schedule, t.schedule().toArray(), e::toString);
        }
    }

    @Property(tries = 400, seed = "60623")
    void anEditedTokenIsRefusedOrDecodesToTheTokenThatWasEdited(@ForAll("editedTokens") Edited edited) {
        refusedOrTheEditedOne(edited);
        net.jqwik.api.statistics.Statistics.label("accepted").collect(accepts(edited.token));
        net.jqwik.api.statistics.Statistics.label("accepted").coverage(c -> {
            c.check(true).count(n -> n > 0);
            c.check(false).count(n -> n > 0);
        });
    }

    private static boolean accepts(String token) {
        try {
            ReplayToken.decode(token);
            return true;
        } catch (ReplayToken.MalformedTokenException e) {
            return false;
        }
    }

    /**
     * The oracle compares with the edit: a token that decodes to another schedule (here, one
     * whose last decision was changed and resealed, as a decoder that ignored the checksum would
     * accept) fails it, though it encodes back to itself.
     */
    @net.jqwik.api.Example
    void theOracleRefusesATokenOfAnotherSchedule() {
        int[] edited = {0, 1, 0, 2, 1};
        String other = new ReplayToken(EDITED_SCENARIO, EDITED_CONFIG, Schedule.of(new int[] {0, 1, 0, 2, 0})).encode();
        assertEquals(other, ReplayToken.decode(other).encode(), "it encodes back to itself");
        org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.AssertionFailedError.class,
                () -> refusedOrTheEditedOne(new Edited(edited, other)));
        refusedOrTheEditedOne(new Edited(edited, new ReplayToken(EDITED_SCENARIO, EDITED_CONFIG, Schedule.of(edited))
                .encode()));
    }
}
