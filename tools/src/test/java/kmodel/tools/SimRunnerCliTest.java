package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@code kmodel fio} and {@code kmodel xfs_io} on the real simulator ({@code SimRunner}): the
 * seeds' examples at a small scale print fio's and xfs_io's shape with the model's counters, the
 * same every time, and the patched form moves the counters the seed's way; bad machine options
 * ({@code --device}, {@code --cpus}, {@code --btrfs-profile}, generated) are one line and exit 2.
 */
class SimRunnerCliTest {
    private static final String SEED000 = "../examples/seed000-btrfs-readpages.fio";
    private static final String SEED002 = "../examples/seed002-async-buffered-reads.fio";

    @Test
    void seed000ExampleRunsDeterministically() {
        CliRun a = CliRun.kmodel("fio", "--scale", "1/1000", "--set", "BTRFS_READPAGES=2", SEED000);
        assertEquals(0, a.code, a.toString());
        assertTrue(a.out.contains("simulated"), a.toString());
        assertTrue(a.out.contains("pages per bio"), a.toString());
        assertTrue(a.out.contains("run at 1/1000 scale"), a.toString());
        CliRun b = CliRun.kmodel("fio", "--scale", "1/1000", "--set", "BTRFS_READPAGES=2", SEED000);
        assertEquals(a.out, b.out);
    }

    @Test
    void seed002ExamplePuntsOnlyWithoutTheSeries() {
        CliRun series = CliRun.kmodel("fio", "--scale", "1/16384", SEED002);
        CliRun iowq = CliRun.kmodel("fio", "--scale", "1/16384", "--set", "ASYNC_BUFFERED_READS=n", "--set",
                "READAHEAD_NOWAIT=n", "--set", "REQ_RAHEAD_NOWAIT=n", SEED002);
        assertEquals(0, series.code, series.toString());
        assertEquals(0, iowq.code, iowq.toString());
        assertTrue(series.out.matches("(?s).*io-wq punts\\s*: 0\\n.*"), series.toString());
        assertTrue(!iowq.out.matches("(?s).*io-wq punts\\s*: 0\\n.*"), iowq.toString());
    }

    @Test
    void seed001XfsIoClonesFastOnlyWhenPatched() {
        CliRun patched = CliRun.kmodel("xfs_io", "--scale", "1/1024", "-d", "-c", "pwrite -b 128K 0 2G", "foo");
        CliRun vanilla = CliRun.kmodel("xfs_io", "--scale", "1/1024", "--set", "BTRFS_DIO_CLONE=0", "-d", "-c",
                "pwrite -b 128K 0 2G", "foo");
        assertEquals(0, patched.code, patched.toString());
        assertTrue(patched.out.matches("(?s).*bvec bytes copied\\s*: 0\\n.*"), patched.toString());
        assertTrue(!vanilla.out.matches("(?s).*bvec bytes copied\\s*: 0\\n.*"), vanilla.toString());
        assertTrue(vanilla.out.contains("wrote 2097152/2097152 bytes at offset 0"), vanilla.toString());
    }

    @Property(tries = 80, seed = "72001")
    void badMachineOptionsAreOneLine(@ForAll("badMachine") List<String> bad) {
        List<String> argv = new ArrayList<>(List.of("fio"));
        argv.addAll(bad);
        argv.add(SEED000);
        CliRun r = CliRun.kmodel(argv.toArray(new String[0]));
        assertEquals(Kmodel.EXIT_USAGE, r.code, r.toString());
        CliOracle.assertSound(r);
    }

    @Provide
    Arbitrary<List<String>> badMachine() {
        Arbitrary<String> junk = Arbitraries.strings().ofMaxLength(10);
        return Arbitraries.oneOf(
                junk.filter(s -> !List.of("sata-ssd", "nvme-ssd", "pmem").contains(s)).map(s -> List.of("--device", s)),
                junk.filter(s -> !List.of("single", "raid0", "raid1").contains(s)).map(s -> List.of("--btrfs-profile", s)),
                Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(0), Arbitraries.integers().greaterOrEqual(65))
                        .map(n -> List.of("--cpus", String.valueOf(n))),
                junk.filter(s -> !s.matches("\\s*[0-9]+\\s*")).map(s -> List.of("--cpus", s)));
    }
}
