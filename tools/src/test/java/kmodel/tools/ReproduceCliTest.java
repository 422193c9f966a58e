package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.Test;

/**
 * {@code kmodel reproduce}: a small run prints the comparison table and exits by the directions
 * it found; bad command lines (a scale, a CPU count, a report path, unknown options, generated
 * junk) are one line on stderr and exit 2, before anything is simulated.
 */
class ReproduceCliTest {
    @Test
    void smallScaleTableExitsZeroAndCheckJudgesTheSeedsRegime() {
        CliRun r = CliRun.kmodel("reproduce", "--scale", "small");
        assertTrue(r.out.contains("SIMULATED"), r.toString());
        assertTrue(r.out.contains("000   READ bw (4 jobs)"), r.toString());
        assertTrue(r.out.contains("002   real (preadv -> series)"), r.toString());
        assertTrue(r.out.contains("seed 002 over device speed"), r.toString());
        assertTrue(r.out.contains("seed's regime (rule fixed before the sweep ran: the simulated series' CPU below 90% of "
                + "one CPU): 3 of 6 points, sata-ssd, intel-dc-s3700, samsung-850-pro"), r.toString());
        assertEquals(0, r.code, "without --check: 0 when the comparison ran " + r);
        CliRun again = CliRun.kmodel("reproduce", "--scale", "small", "--check");
        assertEquals(r.out, again.out, "the simulation is deterministic, and --check changes only the exit status");
        assertTrue(again.out.contains("in each seed's regime every model figure moves the way the seed's does"),
                again.toString());
        assertEquals(0, again.code, again.toString());
    }

    /** A factory whose reproduce runs with {@code cost} over {@code points}. */
    private static picocli.CommandLine.IFactory injected(kmodel.sim.CostModel cost, List<kmodel.sim.DeviceSweep.Point> points) {
        return new picocli.CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == ReproduceCommand.class) {
                    ReproduceCommand c = new ReproduceCommand();
                    c.cost = cost;
                    c.sweepPoints = points;
                    return cls.cast(c);
                }
                return picocli.CommandLine.defaultFactory().create(cls);
            }
        };
    }

    @Test
    void checkFailsOnADeliberateBreakInTheRegimeAndPlainRunDoesNot() {
        // A task_work callback 50 times dearer (10 us): the series' retries cost more CPU than io-wq's punts on the SATA
        // SSD, where the series is still not CPU-bound.
        kmodel.sim.CostModel broken = kmodel.sim.CostModel.standard()
                .scaled(kmodel.kernel.sched.Work.TASK_WORK.name(), 50);
        List<kmodel.sim.DeviceSweep.Point> sata = kmodel.sim.DeviceSweep.points().subList(0, 1);
        CliRun c = CliRun.kmodel(injected(broken, sata), false, "reproduce", "--scale", "small", "--check");
        assertEquals(Kmodel.EXIT_VIOLATION, c.code, c.toString());
        assertTrue(c.out.contains("in the seed's regime a model figure moves against the seed's: seed 002 CPU "
                + "(io-wq -> series) on sata-ssd"), c.toString());
        CliRun plain = CliRun.kmodel(injected(broken, sata), false, "reproduce", "--scale", "small");
        assertEquals(0, plain.code, "without --check the run that printed is 0: " + plain);
    }

    @Test
    void checkFailsWhenNoPointIsInTheRegime() {
        List<kmodel.sim.DeviceSweep.Point> all = kmodel.sim.DeviceSweep.points();
        CliRun c = CliRun.kmodel(injected(kmodel.sim.CostModel.standard(), all.subList(all.size() - 1, all.size())), false,
                "reproduce", "--scale", "small", "--check");
        assertEquals(Kmodel.EXIT_VIOLATION, c.code, c.toString());
        assertTrue(c.out.contains("seed 002: no sweep point in the seed's regime"), c.toString());
    }

    @Test
    void aReportPathThatIsAFileIsOneLine() throws IOException {
        Path f = Files.createTempFile("kmodel-report", ".md");
        try {
            CliRun r = CliRun.kmodel("reproduce", "--scale", "small", "--report", f.toString());
            assertEquals(Kmodel.EXIT_USAGE, r.code, r.toString());
            assertTrue(r.err.contains("exists and is not a directory"), r.toString());
            CliOracle.assertSound(r);
        } finally {
            Files.delete(f);
        }
    }

    @Property(tries = 120, seed = "71001")
    void badCommandLinesAreOneLine(@ForAll("badArgs") List<String> args) {
        List<String> argv = new ArrayList<>();
        argv.add("reproduce");
        argv.addAll(args);
        CliRun r = CliRun.kmodel(argv.toArray(new String[0]));
        assertEquals(Kmodel.EXIT_USAGE, r.code, r.toString());
        CliOracle.assertSound(r);
    }

    @Provide
    Arbitrary<List<String>> badArgs() {
        Arbitrary<String> junk = Arbitraries.strings().ofMinLength(0).ofMaxLength(12);
        Arbitrary<List<String>> badScale = junk.filter(s -> !s.equals("standard") && !s.equals("small"))
                .map(s -> List.of("--scale", s));
        Arbitrary<List<String>> badCpus = Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(0).map(String::valueOf),
                Arbitraries.integers().greaterOrEqual(65).map(String::valueOf), junk.filter(s -> !s.matches("[0-9]+")))
                .map(s -> List.of("--cpus", s));
        Arbitrary<List<String>> unknown = junk.filter(s -> s.startsWith("-") && !s.startsWith("--")
                || s.startsWith("--") && !List.of("--scale", "--cpus", "--report", "--sensitivity", "--check", "--kernel", "--help", "--version",
                        "-h", "-V").contains(s) || !s.startsWith("-") && !s.isEmpty())
                .map(s -> List.of(s));
        Arbitrary<List<String>> missing = Arbitraries.of("--scale", "--cpus", "--report").map(s -> List.of(s));
        Arbitrary<List<String>> emptyReport = Arbitraries.just(List.of("--report", ""));
        return Combinators.combine(Arbitraries.oneOf(badScale, badCpus, unknown, missing, emptyReport),
                Arbitraries.of(List.<String>of(), List.of("--scale", "small"))).as((bad, good) -> {
                    List<String> l = new ArrayList<>(good);
                    l.addAll(bad);
                    return l;
                });
    }
}
