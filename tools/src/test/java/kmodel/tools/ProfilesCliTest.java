package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import kmodel.kernel.KernelProfile;
import kmodel.verification.Profiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kernel NAME} on the command line: the result line, the token, the JSON, the options table. */
class ProfilesCliTest {
    /** A token printed by kmodel before profiles (README, textbook-waitqueue with textbook-check-then-sleep). */
    static final String OLD_TOKEN =
            "km1.eNpjZBAqSa0oScrPz9YtT8wsKSxNLU1lkE0qTbeFiydnpCZn65ZkpObpFuekphZwMjIyAQEDAwMAnLsS8w.cda28ac7";

    private static String tokenOf(CliRun r) {
        for (String l : CliRun.lines(r.out)) {
            if (l.startsWith("replay: ./kmodel replay ")) {
                return l.substring("replay: ./kmodel replay ".length());
            }
        }
        throw new AssertionError("no replay line:\n" + r);
    }

    @Test
    void theResultLineNamesTheDefaultProfile() {
        CliRun r = CliRun.kmodel("check", "--scenario", "textbook-waitqueue");
        assertEquals(0, r.code, r::toString);
        String first = CliRun.lines(r.out).get(0);
        assertTrue(first.startsWith("PASS textbook-waitqueue ") && first.endsWith(" [kernel=v5.10.y]"), r::toString);
    }

    @Test
    void theResultLineAndTheTokenNameTheProfileAndEachOverride() {
        CliRun r = CliRun.kmodel("check", "--kernel", "v5.10", "--set", "PAGE_WAIT_TABLE_SIZE=2",
                "--scenario", "textbook-waitqueue", "--bug", "textbook-check-then-sleep");
        assertEquals(Kmodel.EXIT_VIOLATION, r.code, r::toString);
        String config = "kernel=v5.10,PAGE_WAIT_TABLE_SIZE=2,bug=textbook-check-then-sleep";
        assertTrue(CliRun.lines(r.out).get(0).contains(" [" + config + "]: missed-wakeup"), r::toString);
        CliRun replay = CliRun.kmodel("replay", tokenOf(r));
        assertTrue(CliRun.lines(replay.out).get(0).startsWith("scenario textbook-waitqueue, config [" + config + "]"),
                replay::toString);
        assertTrue(replay.out.contains("missed-wakeup"), replay::toString);
    }

    @Test
    void aTokenFromBeforeProfilesReplaysAsItDid() {
        CliRun replay = CliRun.kmodel("replay", OLD_TOKEN);
        assertTrue(CliRun.lines(replay.out).get(0).startsWith(
                "scenario textbook-waitqueue, config [bug=textbook-check-then-sleep]"), replay::toString);
        assertTrue(replay.out.contains("missed-wakeup: waiter2 sleeps in TASK_UNINTERRUPTIBLE waiting on q (cond)"),
                replay::toString);
    }

    @Test
    void anUnknownProfileIsOneLineAndExitTwo() {
        CliRun r = CliRun.kmodel("check", "--kernel", "v9.9", "--scenario", "textbook-waitqueue");
        assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
        assertEquals(1, r.errLines().size(), r::toString);
        assertTrue(r.err.contains("'v9.9'") && r.err.contains(Profiles.names()), r::toString);
        assertEquals("", r.out, r::toString);
    }

    @Test
    void theJsonCarriesTheProfile(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("r.json");
        CliRun r = CliRun.kmodel("check", "--kernel", "v5.9", "--scenario", "textbook-waitqueue", "--json", json.toString());
        assertEquals(0, r.code, r::toString);
        assertTrue(Files.readString(json).matches("(?s).*\"configuration\":\\s*\"kernel=v5\\.9\".*"), Files.readString(json));
    }

    @Test
    void optionsShowsEveryProfileAndMarksWhereOneDiffersFromTheDefault() {
        CliRun r = CliRun.kmodel("options");
        assertEquals(0, r.code, r::toString);
        List<String> lines = CliRun.lines(r.out);
        assertTrue(lines.get(0).contains(" v5.10.y (default) "), lines.get(0));
        for (KernelProfile p : Profiles.all()) {
            assertTrue(lines.get(0).contains(" " + p.name() + " "), p.name());
            assertTrue(r.out.contains("\n" + p.name() + " "), "the profiles table: " + p.name());
        }
        String rahead = lines.stream().filter(l -> l.startsWith("REQ_RAHEAD_NOWAIT ")).findFirst().orElseThrow();
        assertTrue(rahead.matches("REQ_RAHEAD_NOWAIT +bool +code +n +n +n +n +y\\* +n +n +.*"), rahead);
    }
}
