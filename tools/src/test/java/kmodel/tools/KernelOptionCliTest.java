package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.iouring.IoUringOptions;
import kmodel.tools.fio.Examples;
import kmodel.tools.fio.WorkloadSettings;
import org.junit.jupiter.api.Test;

/**
 * {@code --kernel PROFILE} beyond {@code check}: {@code swarm}, {@code fio}/{@code xfs_io} and
 * {@code bench} run on the profile (its values under the recipes' or {@code --set} forms; without
 * it, the options' declared defaults as before), an unknown profile is one line naming it, and
 * {@code reproduce} refuses the option in one line (a seed's experiment runs its own kernel).
 */
class KernelOptionCliTest {
    @Test
    void fioRunsOnTheProfileUnderItsSetForms() {
        FakeRunner fake = new FakeRunner();
        CliRun r = CliRun.kmodel(FakeRunner.factory(fake), false, "fio", "--kernel", "v5.10", "--set", "BTRFS_READPAGES=0",
                Examples.path(Examples.SEED000).toString());
        CliOracle.assertSound(r);
        assertEquals(0, r.code, r::toString);
        WorkloadSettings s = fake.settings.get(0);
        assertEquals("v5.10", s.config().profile().name());
        assertEquals(1, s.config().value(IoUringOptions.URING_CLOSE_CANCEL_ALL), "the profile's forms");
        assertEquals(0, s.config().value(kmodel.fs.btrfs.BtrfsOptions.BTRFS_READPAGES), "--set over it");
        assertTrue(CliRun.lines(r.out).get(1).startsWith("configuration: kernel=v5.10"), r::toString);
        CliRun none = CliRun.kmodel(FakeRunner.factory(fake), false, "fio", Examples.path(Examples.SEED000).toString());
        assertEquals(0, none.code, none::toString);
        assertNull(fake.settings.get(1).config().profile(), "no --kernel: the options' declared defaults");
        CliRun bad = CliRun.kmodel(FakeRunner.factory(fake), false, "fio", "--kernel", "v9.9",
                Examples.path(Examples.SEED000).toString());
        CliOracle.assertSound(bad);
        assertEquals(Kmodel.EXIT_USAGE, bad.code, bad::toString);
        assertTrue(bad.err.contains("'v9.9'") && bad.err.contains("v5.10.y"), bad::toString);
    }

    @Test
    void swarmRunsItsRecipesOnTheProfileAndItsTokensCarryIt() {
        CliRun r = CliRun.kmodel("swarm", "--kernel", "v5.10.y", "--seed", "1", "--count", "1", "--world", "page",
                "--preemptions", "0");
        CliOracle.assertSound(r);
        assertTrue(r.code == 0 || r.code == Kmodel.EXIT_VIOLATION, r::toString);
        assertTrue(r.out.contains("1 recipe (seed 1, kernel v5.10.y): "), r::toString);
        CliRun none = CliRun.kmodel("swarm", "--seed", "1", "--count", "1", "--world", "page", "--preemptions", "0");
        assertTrue(none.out.contains("1 recipe (seed 1): "), "without --kernel, as before: " + none);
        List<String> a = CliRun.lines(r.out);
        List<String> b = CliRun.lines(none.out);
        assertEquals(a.get(0), b.get(0), "v5.10.y and the declared defaults differ in no option this recipe reads");
        CliRun bad = CliRun.kmodel("swarm", "--kernel", "nope", "--count", "1");
        CliOracle.assertSound(bad);
        assertEquals(Kmodel.EXIT_USAGE, bad.code, bad::toString);
        assertTrue(bad.err.contains("--kernel: unknown profile 'nope'"), bad::toString);
    }

    @Test
    void benchNamesTheProfile() {
        CliRun r = CliRun.kmodel("bench", "--kernel", "v5.10", "--scenario", "textbook-waitqueue", "--bug",
                "textbook-check-then-sleep", "--executions", "200", "--no-jmh", "--quick");
        CliOracle.assertSound(r);
        assertEquals(0, r.code, r::toString);
        assertTrue(CliRun.lines(r.out).get(0).endsWith("; kernel v5.10"), r::toString);
    }

    @Test
    void reproduceRefusesTheOptionInOneLine() {
        for (String k : List.of("v5.10", "seed-002", "junk")) {
            CliRun r = CliRun.kmodel("reproduce", "--kernel", k);
            CliOracle.assertSound(r);
            assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
            assertTrue(r.err.startsWith("kmodel: reproduce --kernel " + k + ": does not apply"), r::toString);
            assertEquals("", r.out, "nothing simulated");
        }
    }
}
