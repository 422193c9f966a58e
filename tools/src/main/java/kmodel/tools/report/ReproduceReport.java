package kmodel.tools.report;

import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import kmodel.sim.CostModel;
import kmodel.sim.DeviceSweep;
import kmodel.sim.Reproduction;
import kmodel.sim.Sensitivity;
import kmodel.sim.SimResult;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report of {@code ./kmodel reproduce --report DIR}: {@code report.md} (the comparison of the
 * seeds' published figures with the model's, the charts with captions and their data, the
 * sensitivity table, the same comparison at a second scale, and the cost model's constants, any
 * that differ from {@link CostModel#standard()} marked) and
 * four PNG charts beside it. Every figure in it is SIMULATED: virtual time of the model under
 * {@link CostModel}, not a measurement, and the report says so at the top
 * and on each chart.
 *
 * <p>The Markdown is a function of its inputs only (no date, no host, {@link Locale#ROOT}
 * numbers): the same reproduction writes the same {@code report.md}.
 */
public final class ReproduceReport {
    /** The Markdown file's name. */
    public static final String MARKDOWN = "report.md";
    /** Seed 000: histogram of pages per bio, vanilla against patched. */
    public static final String PAGES_PER_BIO = "pages-per-bio-000.png";
    /** Seed 001: sys and real time against the clone method. */
    public static final String SYS_TIME = "sys-time-001.png";
    /** Seed 002: CPU, task switches and io-wq workers of the three modes. */
    public static final String SEED002 = "seed002-cpu-switches-workers.png";
    /** Seed 002: wall time and CPU of io-wq and the series against device speed (only with a device sweep). */
    public static final String DEVICE_SWEEP = "seed002-device-sweep.png";
    /** Seed 000: READ bandwidth against the number of jobs (only when the job sweep ran). */
    public static final String THROUGHPUT = "throughput-vs-jobs-000.png";

    /** Where the cost model's sources are written down. */
    static final String COST_MODEL_SOURCE = "sim/src/main/java/kmodel/sim/CostModel.java";

    /** The job counts of the throughput chart; 4 is the seed's own run ({@code 000/vanilla}). */
    static final ImmutableList<Integer> JOBS = ImmutableList.of(1, 2, 4, 8);

    private static final int WIDTH = 800;
    private static final int HEIGHT = 480;

    private ReproduceReport() {
    }

    /**
     * Writes the report of {@code r} into {@code dir} (created if missing; files of the same names
     * are replaced): {@code report.md} and the PNG charts. {@code sensitivity} (may be null) adds
     * the sensitivity table; {@code second} (may be null), a reproduction at another scale, adds
     * the comparison of the ratios at both scales. The throughput chart needs {@code r} to have run
     * the job sweep ({@code 000/jobs-N/...} runs); without it the chart is left out and the report
     * says so. Returns the files written, {@code report.md} first.
     */
    public static List<Path> write(Path dir, Reproduction r, Sensitivity sensitivity, Reproduction second)
            throws IOException {
        return write(dir, r, sensitivity, second, null);
    }

    /**
     * {@link #write(Path, Reproduction, Sensitivity, Reproduction)} with seed 002's device sweep
     * (may be null: the section says it was not run): its table, chart, regime and crossover.
     */
    public static List<Path> write(Path dir, Reproduction r, Sensitivity sensitivity, Reproduction second,
            DeviceSweep sweep) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        written.add(dir.resolve(MARKDOWN));
        Markdown md = new Markdown();
        header(md, r);
        comparison(md, r);
        md.line("## Charts");
        md.line();
        written.add(pagesPerBio(md, dir, r));
        written.add(sysTime(md, dir, r));
        written.add(seed002(md, dir, r));
        Path d = deviceSweep(md, dir, sweep);
        if (d != null) {
            written.add(d);
        }
        Path t = throughput(md, dir, r);
        if (t != null) {
            written.add(t);
        }
        sensitivity(md, sensitivity);
        secondScale(md, r, second);
        costModel(md, r);
        Files.writeString(dir.resolve(MARKDOWN), md.toString(), StandardCharsets.UTF_8);
        return written;
    }

    /** Whether {@code r} ran seed 000 with 1, 2 and 8 jobs as well as 4. */
    static boolean hasJobSweep(Reproduction r) {
        for (int jobs : JOBS) {
            if (jobs != 4 && (!r.runs.containsKey(jobsKey(jobs, false)) || !r.runs.containsKey(jobsKey(jobs, true)))) {
                return false;
            }
        }
        return true;
    }

    private static String jobsKey(int jobs, boolean patched) {
        String form = patched ? "patched" : "vanilla";
        return jobs == 4 ? "000/" + form : "000/jobs-" + jobs + "/" + form;
    }

    private static void header(Markdown md, Reproduction r) {
        md.line("# The seeds' experiments on the simulation");
        md.line();
        md.line("**These are SIMULATED figures**: virtual time of the kmodel model, run deterministically on "
                + r.cpus + " simulated CPUs with the costs of the cost model below, not measurements of any "
                + "machine. Only the \"published\" columns are measurements: the seeds' own figures.");
        md.line();
        md.line("Scale: " + r.scale + ". The seeds' sizes are far too big to simulate step by step, so each "
                + "experiment runs on less data with the same request sizes, queue depths and job counts; what "
                + "is compared is the ratio patched/vanilla, not absolute times.");
        md.line();
    }

    private static void comparison(Markdown md, Reproduction r) {
        md.line("## Published and simulated");
        md.line();
        md.line("For seed 002, \"vanilla -> patched\" reads as the two modes named in the figure "
                + "(io-wq -> series, preadv -> series). A change is patched/vanilla - 1.");
        md.line();
        md.row("seed", "figure", "published (vanilla -> patched)", "published change", "model (vanilla -> patched)",
                "model change", "same direction", "why the size differs");
        md.rule(8);
        for (Reproduction.Row row : r.rows) {
            md.row(row.seed, row.figure,
                    num(row.publishedVanilla) + " -> " + num(row.publishedPatched) + " " + row.unit,
                    pct(row.publishedChange()),
                    model(row),
                    pct(row.modelChange()), row.sameDirection() ? "yes" : "**no**",
                    row.gap != null ? row.gap : row.sameDirection() ? "" : "the model moves the other way");
        }
        md.line();
        List<String> wrong = new ArrayList<>();
        for (Reproduction.Row row : r.rows) {
            if (!row.sameDirection()) {
                wrong.add(row.seed + " " + row.figure);
            }
        }
        md.line(wrong.isEmpty()
                ? "Every model figure moves the way the seed's does."
                : "Not every model figure moves the way the seed's does: " + String.join(", ", wrong) + ".");
        md.line("Where the size of a change is off the seed's by more than a factor of 2, the last column says why.");
        md.line();
    }

    /** The model's two figures; seconds under one as milliseconds (the scaled-down runs are short). */
    static String model(Reproduction.Row row) {
        if (row.unit.equals("s") && Math.max(Math.abs(row.modelVanilla), Math.abs(row.modelPatched)) < 1) {
            return num(row.modelVanilla * 1e3) + " -> " + num(row.modelPatched * 1e3) + " ms";
        }
        return num(row.modelVanilla) + " -> " + num(row.modelPatched) + " " + row.unit;
    }

    private static Path pagesPerBio(Markdown md, Path dir, Reproduction r) throws IOException {
        SimResult v = r.runs.get("000/vanilla");
        SimResult p = r.runs.get("000/patched");
        SortedSet<Integer> sizes = new TreeSet<>(v.pagesPerBio.keySet());
        sizes.addAll(p.pagesPerBio.keySet());
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int n : sizes) {
            data.addValue(v.pagesPerBio.getOrDefault(n, 0L), "vanilla", Integer.valueOf(n));
            data.addValue(p.pagesPerBio.getOrDefault(n, 0L), "patched", Integer.valueOf(n));
        }
        JFreeChart chart = Charts.bars("Seed 000: pages per bio (4 readers, 32 KiB reads)", subtitle(r),
                "pages in the bio", "bios submitted", data, true);
        Path file = dir.resolve(PAGES_PER_BIO);
        Charts.writePng(file, List.of(chart), WIDTH, HEIGHT);
        md.line("### Seed 000: pages per bio");
        md.line();
        md.image("Pages per bio, vanilla and patched, seed 000", PAGES_PER_BIO);
        md.line();
        md.line("How many bios btrfs submitted with each number of pages, when 4 fio readers read one file "
                + "sequentially in 32 KiB reads: vanilla (`BTRFS_READPAGES=0`, the `->readpages` loop) against "
                + "patched (`BTRFS_READPAGES=2`, the seed's page pool). Fewer, larger bios mean fewer bio "
                + "allocations, requests and completion interrupts for the same bytes. Mean pages per bio: "
                + num(v.meanPagesPerBio()) + " vanilla, " + num(p.meanPagesPerBio()) + " patched; bios: "
                + count(v, "bios") + " vanilla, " + count(p, "bios") + " patched.");
        md.line();
        md.row("pages per bio", "vanilla bios", "patched bios");
        md.rule(3);
        for (int n : sizes) {
            md.row(Integer.toString(n), Long.toString(v.pagesPerBio.getOrDefault(n, 0L)),
                    Long.toString(p.pagesPerBio.getOrDefault(n, 0L)));
        }
        md.line();
        return file;
    }

    private static Path sysTime(Markdown md, Path dir, Reproduction r) throws IOException {
        SimResult v = r.runs.get("001/vanilla");
        SimResult p = r.runs.get("001/patched");
        TimeUnit u = TimeUnit.forMax(Math.max(Math.max(v.wallNs, v.sysNs), Math.max(p.wallNs, p.sysNs)));
        String vanilla = "bio_clone_bioset (v4.12)";
        String patched = "bio_clone_fast (seed 001)";
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        data.addValue(u.of(v.sysNs), "sys", vanilla);
        data.addValue(u.of(v.wallNs), "real", vanilla);
        data.addValue(u.of(p.sysNs), "sys", patched);
        data.addValue(u.of(p.wallNs), "real", patched);
        JFreeChart chart = Charts.bars("Seed 001: time against the clone method (xfs_io -d pwrite -b 128K)",
                subtitle(r), "clone method", "time (" + u.name + ")", data, true);
        Path file = dir.resolve(SYS_TIME);
        Charts.writePng(file, List.of(chart), WIDTH, HEIGHT);
        md.line("### Seed 001: sys time against the clone method");
        md.line();
        md.image("Sys and real time against the clone method, seed 001", SYS_TIME);
        md.line();
        md.line("Sys time (CPU time of every task) and real time of `xfs_io -d -c \"pwrite -b 128K 0 SIZE\"` on a "
                + "two-device RAID0 btrfs on pmem: v4.12's `bio_clone_bioset()` with a `bio_add_page()` per page "
                + "(`BTRFS_DIO_CLONE=0`) against seed 001's `bio_clone_fast()` (`BTRFS_DIO_CLONE=1`), which "
                + "shares the bvec table instead of copying it. The patch removes per-page work; the data copy "
                + "to pmem stays.");
        md.line();
        md.row("clone method", "sys (" + u.name + ")", "real (" + u.name + ")", "bioset clones", "fast clones",
                "bvec bytes copied");
        md.rule(6);
        md.row(vanilla, num(u.of(v.sysNs)), num(u.of(v.wallNs)), count(v, "bioset clones"), count(v, "fast clones"),
                count(v, "bvec bytes copied"));
        md.row(patched, num(u.of(p.sysNs)), num(u.of(p.wallNs)), count(p, "bioset clones"), count(p, "fast clones"),
                count(p, "bvec bytes copied"));
        md.line();
        return file;
    }

    private static Path seed002(Markdown md, Path dir, Reproduction r) throws IOException {
        String[] modes = {"preadv", "io-wq", "series"};
        String[] labels = {"preadv", "io-wq", "async retry (series)"};
        DefaultCategoryDataset cpu = new DefaultCategoryDataset();
        DefaultCategoryDataset switches = new DefaultCategoryDataset();
        DefaultCategoryDataset workers = new DefaultCategoryDataset();
        for (int i = 0; i < modes.length; i++) {
            SimResult s = r.runs.get("002/" + modes[i]);
            cpu.addValue(s.taskCpuShare() * 100, "CPU", labels[i]);
            switches.addValue(s.switches, "task switches", labels[i]);
            workers.addValue(s.counters.getOrDefault("io-wq workers", 0L), "io-wq workers", labels[i]);
        }
        String sub = "SIMULATED, not measured; scale " + r.scale.name + ", " + r.cpus + " CPUs";
        List<JFreeChart> charts = List.of(
                Charts.bars("Seed 002: CPU", sub, "mode", "CPU (app + io-wq) / real time (%)", cpu, false),
                Charts.bars("Seed 002: task switches", sub, "mode", "context switches", switches, false),
                Charts.bars("Seed 002: io-wq workers", sub, "mode", "workers created", workers, false));
        Path file = dir.resolve(SEED002);
        Charts.writePng(file, charts, 520, HEIGHT);
        md.line("### Seed 002: CPU, task switches and io-wq workers");
        md.line();
        md.image("CPU, task switches and io-wq workers of preadv, io-wq and the async retry series, seed 002", SEED002);
        md.line();
        md.line("Random 4 KiB reads of every block of a file at queue depth 32 on an NVMe SSD, three ways: "
                + "`preadv` (one read at a time), io_uring punting each read that would block to io-wq workers "
                + "(the mainline before the series), and the series' async buffered reads (a read that would "
                + "wait for a page arms a wake-up callback on the page and is retried from task_work instead of "
                + "being handed to a worker). Left: CPU time of the application and of io-wq's workers over real "
                + "time, interrupts left out, as the seed counts its CPU figure (100% = one CPU busy all along; "
                + "the table also gives the CPU with interrupts). Middle: context switches on the "
                + "simulated CPUs. Right: io-wq worker threads created.");
        md.line();
        md.row("mode", "real (ms)", "CPU (%)", "CPU with interrupts (%)", "task switches", "voluntary switches", "io-wq workers", "io-wq punts");
        md.rule(8);
        for (int i = 0; i < modes.length; i++) {
            SimResult s = r.runs.get("002/" + modes[i]);
            md.row(labels[i], num(s.wallNs / 1e6), num(s.taskCpuShare() * 100), num(s.cpuShare() * 100),
                    Long.toString(s.switches),
                    count(s, "voluntary switches"), count(s, "io-wq workers"), count(s, "io-wq punts"));
        }
        md.line();
        return file;
    }

    private static Path deviceSweep(Markdown md, Path dir, DeviceSweep sweep) throws IOException {
        md.line("### Seed 002 over device speed");
        md.line();
        if (sweep == null) {
            md.line("Not run for this report.");
            md.line();
            return null;
        }
        XYSeries iowqReal = new XYSeries("io-wq");
        XYSeries seriesReal = new XYSeries("async retry (series)");
        XYSeries iowqCpu = new XYSeries("io-wq");
        XYSeries seriesCpu = new XYSeries("async retry (series)");
        for (DeviceSweep.Row row : sweep.rows) {
            double k = row.point.ceilingIops() / 1e3;
            iowqReal.add(k, row.iowq.wallNs / 1e6);
            seriesReal.add(k, row.series.wallNs / 1e6);
            iowqCpu.add(k, row.iowq.taskCpuShare() * 100);
            seriesCpu.add(k, row.series.taskCpuShare() * 100);
        }
        XYSeriesCollection real = new XYSeriesCollection();
        real.addSeries(iowqReal);
        real.addSeries(seriesReal);
        XYSeriesCollection cpu = new XYSeriesCollection();
        cpu.addSeries(iowqCpu);
        cpu.addSeries(seriesCpu);
        String sub = "SIMULATED, not measured; scale " + sweep.scale.name + ", " + sweep.cpus + " CPUs";
        List<JFreeChart> charts = List.of(
                Charts.lines("Seed 002: real time against device speed", sub,
                        "reads/s the device serves at queue depth 32 (thousands)", "real (ms)", real),
                Charts.lines("Seed 002: CPU against device speed", sub,
                        "reads/s the device serves at queue depth 32 (thousands)", "CPU (app + io-wq) / real time (%)", cpu));
        Path file = dir.resolve(DEVICE_SWEEP);
        Charts.writePng(file, charts, 640, HEIGHT);
        md.image("Real time and CPU of io-wq and the series against device speed, seed 002", DEVICE_SWEEP);
        md.line();
        md.line("Seed 002's experiment on devices from a slow SATA SSD to the data-sheet NVMe SSD of the table, each "
                + "built from its own data sheet (random-read IOPS, sequential read bandwidth, read latency; "
                + "`kmodel.sim.DeviceSweep` says how), never from the seed's results. The seed's CPU figures (the "
                + "series at about 52% of a CPU) say its series was not CPU-bound; the seed's regime is the points "
                + "where the simulated series is not either: its CPU below "
                + num(DeviceSweep.SERIES_CPU_LIMIT * 100) + "% of one CPU, a rule fixed before the sweep was run.");
        md.line();
        md.row("device", "IOPS (data sheet)", "at QD32 (model)", "io-wq real (ms)", "io-wq CPU (%)", "series real (ms)",
                "series CPU (%)", "real change", "CPU change", "preadv real (ms)", "seed's regime", "source");
        md.rule(12);
        for (DeviceSweep.Row row : sweep.rows) {
            md.row(row.point.device.name, DeviceSweep.kiops(row.point.iops), DeviceSweep.kiops(row.point.ceilingIops()),
                    num(row.iowq.wallNs / 1e6), num(row.iowq.taskCpuShare() * 100), num(row.series.wallNs / 1e6),
                    num(row.series.taskCpuShare() * 100), pct(row.realChange()), pct(row.cpuChange()),
                    num(row.preadv.wallNs / 1e6), row.inSeedRegime() ? "yes" : "no", row.point.device.source);
        }
        md.line();
        List<String> cross = sweep.crossovers();
        md.line("Crossover of the wall time: " + (cross.isEmpty() ? "none in this sweep." : String.join("; ", cross) + "."));
        List<String> against = new ArrayList<>();
        for (DeviceSweep.Row row : sweep.seedRegime()) {
            for (String f : row.against()) {
                against.add(f + " on " + row.point.device.name);
            }
        }
        md.line(sweep.seedRegime().isEmpty() ? "No point of this sweep is in the seed's regime."
                : against.isEmpty() ? "In the seed's regime (" + sweep.seedRegime().size() + " of " + sweep.rows.size()
                        + " points) every seed 002 figure moves the seed's way."
                        : "In the seed's regime, against the seed's direction: " + String.join(", ", against) + ".");
        md.line();
        md.line("Why the sizes differ: where the series is not CPU-bound the model's io-wq keeps up with the device too, "
                + "so both modes finish when the device does and the series' wall-time gain is small; the seed's io-wq "
                + "did not keep up (87k reads a second against its series' 113k), a loss the seed puts on threads "
                + "contending for one inode's page cache, which the cost model does not charge (no cache-line transfers "
                + "or lock contention). Where the series is CPU-bound, io-wq's workers, spread over the CPUs, can finish "
                + "first: a regime the seed did not measure.");
        md.line();
        return file;
    }

    private static Path throughput(Markdown md, Path dir, Reproduction r) throws IOException {
        md.line("### Seed 000: throughput against the number of jobs");
        md.line();
        if (!hasJobSweep(r)) {
            md.line("Not drawn: this reproduction ran seed 000 with 4 jobs only (no job sweep).");
            md.line();
            return null;
        }
        XYSeries vanilla = new XYSeries("vanilla");
        XYSeries patched = new XYSeries("patched");
        for (int jobs : JOBS) {
            vanilla.add(jobs, r.runs.get(jobsKey(jobs, false)).bandwidth() / 1e6);
            patched.add(jobs, r.runs.get(jobsKey(jobs, true)).bandwidth() / 1e6);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(vanilla);
        data.addSeries(patched);
        JFreeChart chart = Charts.lines("Seed 000: READ bandwidth against fio numjobs", subtitle(r),
                "jobs (readers of the file)", "READ bandwidth (MB/s)", data);
        Path file = dir.resolve(THROUGHPUT);
        Charts.writePng(file, List.of(chart), WIDTH, HEIGHT);
        md.image("READ bandwidth against the number of jobs, vanilla and patched, seed 000", THROUGHPUT);
        md.line();
        md.line("The group's READ bandwidth (bytes of all jobs over the run's real time, MB = 10^6 bytes) when "
                + "1, 2, 4 (the seed's run) or 8 fio jobs read the same file in 32 KiB sequential reads, "
                + "vanilla against patched. Every job reads the whole file, as the seed's fio jobs do, so a page "
                + "one reader brought in can serve the others from the page cache: the table gives the bios and "
                + "pages the device read beside the bandwidth. The seed measured 4 jobs only.");
        md.line();
        md.row("jobs", "vanilla (MB/s)", "patched (MB/s)", "change", "vanilla bios", "patched bios",
                "vanilla pages read", "patched pages read");
        md.rule(8);
        for (int jobs : JOBS) {
            SimResult v = r.runs.get(jobsKey(jobs, false));
            SimResult p = r.runs.get(jobsKey(jobs, true));
            md.row(Integer.toString(jobs), num(v.bandwidth() / 1e6), num(p.bandwidth() / 1e6),
                    pct(p.bandwidth() / v.bandwidth() - 1), count(v, "bios"), count(p, "bios"), count(v, "pages"),
                    count(p, "pages"));
        }
        md.line();
        return file;
    }

    private static void sensitivity(Markdown md, Sensitivity s) {
        md.line("## Sensitivity to the cost model");
        md.line();
        if (s == null) {
            md.line("Not computed for this report.");
            md.line();
            return;
        }
        md.line("Each constant of the cost model halved (x0.5) and doubled (x2) in turn, everything else "
                + "standard, the seeds' experiments re-run at scale " + s.scale + " on " + s.cpus
                + " CPUs (no job sweep). Each cell is the model's change patched/vanilla - 1 of one figure; "
                + "a cell in bold with \"(!)\" does not move the way the seed's does. The row \"(standard costs)\" "
                + "is the standard cost model at this scale: read each variant against it.");
        md.line();
        List<String> header = new ArrayList<>(List.of("constant", "factor", "value"));
        header.addAll(s.figures);
        header.add("all same direction");
        md.row(header.toArray(new String[0]));
        md.rule(header.size());
        List<String> published = new ArrayList<>(List.of("(published)", "", ""));
        for (double c : s.publishedChanges) {
            published.add(pct(c));
        }
        published.add("");
        md.row(published.toArray(new String[0]));
        sensitivityRow(md, s.baseline);
        for (Sensitivity.Row row : s.rows) {
            sensitivityRow(md, row);
        }
        md.line();
        int kept = 0;
        for (Sensitivity.Row row : s.rows) {
            if (row.allSameDirection()) {
                kept++;
            }
        }
        md.line(kept + " of " + s.rows.size() + " variants keep every figure's direction.");
        md.line();
        for (int i = 0; i < s.figures.size(); i++) {
            List<String> turns = new ArrayList<>();
            for (Sensitivity.Row row : s.rows) {
                if (!row.sameDirection.get(i)) {
                    turns.add(row.constant + " x" + Sensitivity.factor(row.factor));
                }
            }
            if (!s.baseline.sameDirection.get(i)) {
                md.line("- " + s.figures.get(i) + ": already against the seed's direction with the standard costs "
                        + "at this scale; with " + turns.size() + " of " + s.rows.size() + " variants too.");
            } else if (!turns.isEmpty()) {
                md.line("- " + s.figures.get(i) + " turns against the seed's direction with " + String.join(", ", turns)
                        + ".");
            }
        }
        md.line();
    }

    private static void sensitivityRow(Markdown md, Sensitivity.Row row) {
        List<String> cells = new ArrayList<>();
        cells.add(Double.isNaN(row.value) ? "(standard costs)" : row.constant);
        cells.add(row.factor == 1 ? "" : "x" + Sensitivity.factor(row.factor));
        cells.add(Double.isNaN(row.value) ? "" : num(row.value));
        for (int i = 0; i < row.changes.size(); i++) {
            String c = pct(row.changes.get(i));
            cells.add(row.sameDirection.get(i) ? c : "**" + c + " (!)**");
        }
        cells.add(row.allSameDirection() ? "yes" : "**no**");
        md.row(cells.toArray(new String[0]));
    }

    private static void secondScale(Markdown md, Reproduction r, Reproduction second) {
        md.line("## The same ratios at two scales");
        md.line();
        if (second == null) {
            md.line("Not computed for this report.");
            md.line();
            return;
        }
        md.line("The same experiments at a second scale, to show whether the ratios hold when the runs shrink "
                + "or grow. Scale \"" + r.scale.name + "\": " + r.scale + ". Scale \"" + second.scale.name
                + "\": " + second.scale + ".");
        md.line();
        md.row("seed", "figure", "published change", "model change (" + r.scale.name + ")",
                "model change (" + second.scale.name + ")", "same direction at both");
        md.rule(6);
        for (Reproduction.Row row : r.rows) {
            Reproduction.Row other = find(second, row);
            md.row(row.seed, row.figure, pct(row.publishedChange()), pct(row.modelChange()),
                    other == null ? "n/a" : pct(other.modelChange()),
                    other != null && row.sameDirection() && other.sameDirection() ? "yes" : "**no**");
        }
        md.line();
    }

    private static Reproduction.Row find(Reproduction r, Reproduction.Row like) {
        for (Reproduction.Row row : r.rows) {
            if (row.seed.equals(like.seed) && row.figure.equals(like.figure)) {
                return row;
            }
        }
        return null;
    }

    private static void costModel(Markdown md, Reproduction r) {
        md.line("## The cost model");
        md.line();
        md.line("The constants the simulation charged (times in ns of one CPU). They were fixed from published "
                + "figures before any comparison with the seeds and are not fitted to them; each constant's "
                + "source is in the Javadoc table of `" + COST_MODEL_SOURCE + "`.");
        md.line();
        md.row("constant", "value", "unit");
        md.rule(3);
        Map<String, Double> standard = CostModel.standard().values();
        for (Map.Entry<String, Double> e : r.cost.values().entrySet()) {
            Double std = standard.get(e.getKey());
            String value = num(e.getValue());
            if (std != null && !std.equals(e.getValue())) {
                value = "**" + value + "** (standard: " + num(std) + ")";
            }
            md.row(e.getKey(), value, e.getKey().endsWith("_BYTES") ? "ns per byte" : "ns");
        }
        md.line();
    }

    private static String subtitle(Reproduction r) {
        return "SIMULATED (virtual time, kmodel cost model; not measured), scale " + r.scale.name + ", " + r.cpus
                + " CPUs";
    }

    private static String count(SimResult s, String counter) {
        Long v = s.counters.get(counter);
        return v == null ? "-" : v.toString();
    }

    /** A figure with 4 significant digits (integers from 1000 on), no exponent, {@link Locale#ROOT}. */
    static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v == 0) {
            return "0";
        }
        return BigDecimal.valueOf(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    /** A change as a signed percentage with one decimal. */
    public static String pct(double change) {
        if (Double.isNaN(change) || Double.isInfinite(change)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%+.1f%%", change * 100);
    }

    /** The time unit of a chart: seconds, or milliseconds when the longest time is under a second. */
    private static final class TimeUnit {
        final String name;
        final double ns;

        private TimeUnit(String name, double ns) {
            this.name = name;
            this.ns = ns;
        }

        static TimeUnit forMax(long maxNs) {
            return maxNs >= 1_000_000_000L ? new TimeUnit("s", 1e9) : new TimeUnit("ms", 1e6);
        }

        double of(long ns) {
            return ns / this.ns;
        }
    }

    /** A Markdown text with tables whose cells are escaped. */
    private static final class Markdown {
        private final StringBuilder sb = new StringBuilder();

        void line(String s) {
            sb.append(s).append('\n');
        }

        void line() {
            sb.append('\n');
        }

        void image(String alt, String file) {
            line("![" + alt + "](" + file + ")");
        }

        void row(String... cells) {
            sb.append('|');
            for (String c : cells) {
                sb.append(' ').append(c.replace("|", "\\|").replace("\n", " ")).append(" |");
            }
            sb.append('\n');
        }

        void rule(int columns) {
            sb.append('|');
            for (int i = 0; i < columns; i++) {
                sb.append("---|");
            }
            sb.append('\n');
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}
