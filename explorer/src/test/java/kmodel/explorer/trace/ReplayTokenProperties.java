package kmodel.explorer.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import kmodel.explorer.search.Schedule;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class ReplayTokenProperties {

    @Provide
    Arbitrary<int[]> schedules() {
        return Arbitraries.integers().between(0, 1 << 20).array(int[].class).ofMaxSize(500);
    }

    @Property(tries = 300, seed = "20201201")
    void everyScheduleSurvivesEncodeAndDecode(@ForAll("schedules") int[] decisions) {
        String token = new ReplayToken("s", "A=1,bug=x", Schedule.of(decisions)).encode();
        assertArrayEquals(decisions, ReplayToken.decode(token).schedule().toArray());
    }

    @Property(tries = 300, seed = "20201202")
    void anyChangedChecksumCharacterIsDetected(@ForAll("schedules") int[] decisions, @ForAll @IntRange(min = 0, max = 7) int pos) {
        String token = new ReplayToken("s", "", Schedule.of(decisions)).encode();
        int at = token.length() - 8 + pos;
        char c = token.charAt(at);
        char other = c == 'a' ? 'b' : 'a';
        String bad = token.substring(0, at) + other + token.substring(at + 1);
        assertThrows(ReplayToken.MalformedTokenException.class, () -> ReplayToken.decode(bad));
    }
}
