package kmodel.tools.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import kmodel.sim.CostModel;
import kmodel.sim.Reproduction;
import kmodel.sim.Sensitivity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReproduceReport} and {@link Sensitivity} on real simulations at tiny scales (a few
 * seconds each): the files written, valid PNGs, the Markdown's tables, and the same Markdown for
 * the same input.
 */
class ReproduceReportTest {
    /** Small enough for a unit test: 1 MiB read and written, 128 random reads. */
    static final Reproduction.Scale TINY = new Reproduction.Scale("tiny", 1 << 20, 1 << 20, 128);
    /** The second scale: half of it. */
    static final Reproduction.Scale TINIER = new Reproduction.Scale("tinier", 1 << 19, 1 << 19, 64);
    static final int CPUS = 8;

    static Reproduction tiny;

    @BeforeAll
    static void simulate() {
        tiny = Reproduction.run(TINY, CPUS, CostModel.standard(), true, s -> { });
    }

    @Test
    void theDeviceSweepHasItsChartTableRegimeAndSources(@TempDir Path dir) throws IOException {
        List<kmodel.sim.DeviceSweep.Point> all = kmodel.sim.DeviceSweep.points();
        kmodel.sim.DeviceSweep sweep = kmodel.sim.DeviceSweep.run(TINY, CPUS, CostModel.standard(),
                List.of(all.get(0), all.get(all.size() - 1)), tiny, s -> { });
        List<Path> written = ReproduceReport.write(dir, tiny, null, null, sweep);
        assertTrue(written.contains(dir.resolve(ReproduceReport.DEVICE_SWEEP)), written.toString());
        BufferedImage img = ImageIO.read(dir.resolve(ReproduceReport.DEVICE_SWEEP).toFile());
        assertNotNull(img);
        assertEquals(1280, img.getWidth(), "real time and CPU side by side");
        String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(md.contains("### Seed 002 over device speed"), md);
        assertTrue(md.contains("](" + ReproduceReport.DEVICE_SWEEP + ")"), md);
        assertTrue(md.contains("| sata-ssd | 39.5k IOPS | 39.7k IOPS | "), md);
        assertTrue(md.contains(all.get(0).device.source), "each point names its source");
        assertTrue(md.contains("its CPU below 90% of one CPU, a rule fixed before the sweep was run"), md);
        assertTrue(md.contains("Crossover of the wall time: "), md);
        assertTrue(Files.readString(ReproduceReport.write(dir.resolve("none"), tiny, null, null).get(0))
                .contains("### Seed 002 over device speed\n\nNot run for this report."), "without a sweep, said so");
    }

    @Test
    void writesTheMarkdownAndFourValidPngs(@TempDir Path dir) throws IOException {
        List<Path> written = ReproduceReport.write(dir, tiny, null, null);
        assertEquals(List.of(dir.resolve("report.md"), dir.resolve("pages-per-bio-000.png"),
                dir.resolve("sys-time-001.png"), dir.resolve("seed002-cpu-switches-workers.png"),
                dir.resolve("throughput-vs-jobs-000.png")), written);
        for (Path p : written.subList(1, written.size())) {
            assertTrue(Files.size(p) > 10_000, p + " is " + Files.size(p) + " bytes");
            BufferedImage img = ImageIO.read(p.toFile());
            assertNotNull(img, p + " is not an image ImageIO can read");
            assertTrue(img.getWidth() >= 800 && img.getHeight() >= 400, p + ": " + img.getWidth() + "x"
                    + img.getHeight());
        }
        assertEquals(1560, ImageIO.read(dir.resolve("seed002-cpu-switches-workers.png").toFile()).getWidth(),
                "seed 002's image holds three charts side by side");
        String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(md.contains("SIMULATED"), md);
        assertTrue(md.contains(TINY.toString()), "the scale is stated");
        assertTrue(md.contains("| seed | figure | published (vanilla -> patched) | published change |"), md);
        for (Reproduction.Row row : tiny.rows) {
            String line = "| " + row.seed + " | " + row.figure + " | ";
            assertTrue(md.contains(line + ReproduceReport.num(row.publishedVanilla) + " -> "
                    + ReproduceReport.num(row.publishedPatched) + " " + row.unit + " | "
                    + ReproduceReport.pct(row.publishedChange()) + " | "), "row " + line + " in\n" + md);
        }
        assertTrue(md.contains("| 000 | READ bw (4 jobs) | 745 -> 934 MB/s | +25.4% |"), md);
        for (String png : List.of("pages-per-bio-000.png", "sys-time-001.png", "seed002-cpu-switches-workers.png",
                "throughput-vs-jobs-000.png")) {
            assertTrue(md.contains("](" + png + ")"), png + " is shown in the Markdown");
        }
        assertTrue(md.contains("| constant | value | unit |"));
        assertTrue(md.contains("| contextSwitch | 1500 | ns |"), md);
        assertTrue(md.contains("| BVEC_COPY_BYTES | 0.5 | ns per byte |"), md);
        assertTrue(md.contains(ReproduceReport.COST_MODEL_SOURCE));
        assertTrue(md.contains("## Sensitivity to the cost model\n\nNot computed for this report."), md);
        assertTrue(md.contains("## The same ratios at two scales\n\nNot computed for this report."), md);
    }

    @Test
    void theSameInputWritesTheSameMarkdown(@TempDir Path a, @TempDir Path b) throws IOException {
        ReproduceReport.write(a, tiny, null, tiny);
        ReproduceReport.write(b, tiny, null, tiny);
        ReproduceReport.write(a, tiny, null, tiny);
        byte[] first = Files.readAllBytes(a.resolve("report.md"));
        assertArrayEquals(first, Files.readAllBytes(b.resolve("report.md")));
        assertTrue(new String(first, StandardCharsets.UTF_8).contains("| seed | figure | published change |"
                + " model change (tiny) | model change (tiny) | same direction at both |"));
    }

    @Test
    void sensitivityAndSecondScaleGoIntoTheReport(@TempDir Path dir) throws IOException {
        List<String> progress = new ArrayList<>();
        Sensitivity s = Sensitivity.run(TINIER, CPUS, List.of(CostModel.CONTEXT_SWITCH, "BIO_ADD_PAGE"), progress::add);
        assertEquals("sensitivity 1/5 standard: 000/vanilla", progress.get(0));
        assertEquals("sensitivity 5/5 BIO_ADD_PAGE x2: 002/series", progress.get(progress.size() - 1));
        assertEquals(5 * 7, progress.size(), "7 simulated runs per reproduction: " + progress);
        assertEquals(4, s.rows.size());
        assertEquals(List.of("contextSwitch", "contextSwitch", "BIO_ADD_PAGE", "BIO_ADD_PAGE"),
                s.rows.stream().map(r -> r.constant).toList());
        assertEquals(List.of(0.5, 2.0, 0.5, 2.0), s.rows.stream().map(r -> r.factor).toList());
        assertEquals(750.0, s.rows.get(0).value);
        assertEquals(100.0, s.rows.get(3).value);
        assertEquals(tiny.rows.size(), s.figures.size());
        for (Sensitivity.Row r : s.rows) {
            assertEquals(s.figures.size(), r.changes.size());
            assertEquals(s.figures.size(), r.sameDirection.size());
        }
        Reproduction second = Reproduction.run(TINIER, CPUS, CostModel.standard(), false, p -> { });
        for (int i = 0; i < second.rows.size(); i++) {
            assertEquals(second.rows.get(i).modelChange(), s.baseline.changes.get(i),
                    "the baseline is the standard cost model at the sensitivity's scale");
        }
        List<Path> written = ReproduceReport.write(dir, tiny, s, second);
        assertEquals(5, written.size(), "the second reproduction did not run the job sweep: no throughput chart "
                + "of it, and the first's is drawn");
        String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(md.contains("| constant | factor | value | 000 READ bw (4 jobs) |"), md);
        assertTrue(md.contains("| (standard costs) |  |  | "), md);
        assertTrue(md.contains("| contextSwitch | x0.5 | 750 | "), md);
        assertTrue(md.contains("| BIO_ADD_PAGE | x2 | 100 | "), md);
        assertTrue(md.contains(" of 4 variants keep every figure's direction"), md);
        assertTrue(md.contains("model change (tiny) | model change (tinier) |"), md);
        assertFalse(md.contains("Not computed for this report."), md);

        Path noSweep = dir.resolve("no-sweep");
        assertEquals(List.of(noSweep.resolve("report.md"), noSweep.resolve("pages-per-bio-000.png"),
                noSweep.resolve("sys-time-001.png"), noSweep.resolve("seed002-cpu-switches-workers.png")),
                ReproduceReport.write(noSweep, second, null, null), "no throughput chart without the job sweep");
        assertFalse(Files.exists(noSweep.resolve("throughput-vs-jobs-000.png")));
        assertTrue(Files.readString(noSweep.resolve("report.md"), StandardCharsets.UTF_8)
                .contains("Not drawn: this reproduction ran seed 000 with 4 jobs only (no job sweep)."));
    }

    @Test
    void aConstantOtherThanStandardIsMarked(@TempDir Path dir) throws IOException {
        Reproduction r = Reproduction.run(TINIER, CPUS, CostModel.standard().scaled(CostModel.CONTEXT_SWITCH, 2), false,
                p -> { });
        ReproduceReport.write(dir, r, null, null);
        String md = Files.readString(dir.resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(md.contains("| contextSwitch | **3000** (standard: 1500) | ns |"), md);
        assertTrue(md.contains("| wakeUp | 1000 | ns |"), md);
    }

    @Test
    void anUnknownConstantIsRefusedBeforeAnyRun() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Sensitivity.run(TINY, CPUS, List.of("nope"), p -> { }));
        assertTrue(e.getMessage().startsWith("no cost constant nope"), e.getMessage());
    }

    @Test
    void numbersAreFormattedTheSameEverywhere() {
        assertEquals("745", ReproduceReport.num(745));
        assertEquals("10.27", ReproduceReport.num(10.265));
        assertEquals("0.01235", ReproduceReport.num(0.012345));
        assertEquals("12345", ReproduceReport.num(12345.4));
        assertEquals("0", ReproduceReport.num(0));
        assertEquals("n/a", ReproduceReport.num(Double.NaN));
        assertEquals("+25.4%", ReproduceReport.pct(934.0 / 745 - 1));
        assertEquals("-36.6%", ReproduceReport.pct(52.0 / 82 - 1));
        assertEquals("n/a", ReproduceReport.pct(Double.POSITIVE_INFINITY));
    }
}
