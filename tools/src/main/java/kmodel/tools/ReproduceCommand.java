package kmodel.tools;

import static kmodel.tools.report.ReproduceReport.pct;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import kmodel.sim.CostModel;
import kmodel.sim.DeviceSweep;
import kmodel.sim.Reproduction;
import kmodel.sim.Sensitivity;
import kmodel.sim.SimResult;
import kmodel.sim.Simulator;
import kmodel.tools.report.ReproduceReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel reproduce}: the three seeds' experiments on the virtual-time simulation, vanilla
 * and patched, in one table: per figure the published values and change, the model's, whether
 * the model moves the way the seed does, and, where the size of the change is far from the
 * seed's (more than a factor of 2 either way), why; then seed 002 over device speed
 * ({@link DeviceSweep}): per device the series' and io-wq's wall time and CPU, the crossover, and
 * the seed's regime (the points where the simulated series is not CPU-bound, by a rule fixed
 * before the sweep was run). Exit 0 when it ran and printed the comparison; with {@code --check},
 * 1 when a figure moves against the seed's in the seed's regime (seeds 000 and 001: the table's
 * runs; seed 002: the sweep's points in its regime, none of which is itself a disagreement); 2
 * bad usage, 3 when the model failed during a simulation.
 */
@Command(name = "reproduce",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = {"Reproduce the seeds' experiments on the virtual-time simulation of the model and compare them "
                + "with the published figures (every model figure is simulated, not measured)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the comparison ran and was printed (without --check: whatever the directions; with --check: every "
                    + "figure moves the seed's way in the seed's regime)",
            "1:with --check: a model figure moves against the seed's in the seed's regime (or the sweep has no "
                    + "point in seed 002's regime)",
            "2:bad usage",
            "3:the model failed during a simulation"
        })
final class ReproduceCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--scale", paramLabel = "standard|small",
            description = "How big each experiment is (default: ${DEFAULT-VALUE}); see the README's \"Simulation\".",
            defaultValue = "standard")
    String scale;

    @Option(names = "--cpus", paramLabel = "N", description = "CPUs of the simulated machine, 1 to 64 (default: ${DEFAULT-VALUE}).",
            defaultValue = "8")
    int cpus;

    @Option(names = "--sensitivity",
            description = "Also halve and double each cost constant (34 more reproductions at the same scale: about a "
                    + "minute at --scale small, several at standard) and say, per figure, in how many of them the model "
                    + "still moves the seed's way.")
    boolean sensitivity;

    @Option(names = "--kernel", paramLabel = "PROFILE",
            description = "Not for reproduce: each seed's experiment runs that seed's own kernel forms, vanilla against "
                    + "patched (the seed-000, seed-001 and seed-002 profiles of kmodel options say which); refused with "
                    + "one line. Simulate a profile with kmodel fio --kernel PROFILE.")
    String kernel;

    @Option(names = "--check",
            description = "Exit 1 when a model figure moves against the seed's in the seed's regime: seeds 000 and 001 "
                    + "in the table's runs, seed 002 at the device-sweep points where the simulated series is not "
                    + "CPU-bound (its CPU below 90% of one CPU, as the seed's 52% was not). Without it the exit status "
                    + "is 0 whenever the comparison ran.")
    boolean check;

    @Option(names = "--report", paramLabel = "DIR",
            description = "Also write DIR/report.md and its PNG charts: the table, pages per bio (000), sys time per "
                    + "clone method (001), CPU, switches and workers per mode (002), bandwidth against 1, 2, 4, 8 jobs "
                    + "(000), the other scale's figures and the sensitivity table (implies --sensitivity; a few minutes).")
    String report;

    /**
     * Check the options and stop before the first simulation (set by the command line's fuzzing,
     * which must not run minutes of simulation per input; not an option).
     */
    boolean validateOnly;

    /** The cost model of every run (tests inject a deliberately broken one; not an option). */
    CostModel cost = CostModel.standard();

    /** The devices of seed 002's sweep (tests inject others; not an option). */
    List<DeviceSweep.Point> sweepPoints = DeviceSweep.points();

    @Override
    public Integer call() {
        if (kernel != null) {
            throw new Kmodel.OneLine(spec.commandLine(), "reproduce --kernel " + kernel + ": does not apply: each seed's "
                    + "experiment runs its own kernel's forms, vanilla against patched; a profile is simulated by "
                    + "kmodel fio --kernel PROFILE JOBFILE");
        }
        Reproduction.Scale s;
        switch (Values.lower(scale)) { // keywords ignore case (Values)
            case "standard":
                s = Reproduction.Scale.standard();
                break;
            case "small":
                s = Reproduction.Scale.small();
                break;
            default:
                throw new ParameterException(spec.commandLine(), "--scale must be standard or small, not '" + scale + "'");
        }
        if (cpus < 1 || cpus > 64) {
            throw new ParameterException(spec.commandLine(), "--cpus must be 1 to 64, not " + cpus);
        }
        Path dir = null;
        if (report != null) {
            if (report.isEmpty() || report.indexOf('\0') >= 0) {
                throw new ParameterException(spec.commandLine(), "--report needs a directory name");
            }
            dir = Paths.get(report);
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                throw new ParameterException(spec.commandLine(), "--report " + report + ": exists and is not a directory");
            }
            sensitivity = true;
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (validateOnly) {
            out.println("kmodel reproduce: would run at scale " + s.name + " on " + cpus + " CPUs"
                    + (dir != null ? ", report in " + dir : sensitivity ? ", with the sensitivity runs" : "")
                    + (check ? ", checking the directions in each seed's regime" : ""));
            return 0;
        }
        ProgressLine line = ProgressLine.stderrIsTerminal() ? new ProgressLine(err) : null;
        java.util.function.Consumer<String> progress = name -> {
            if (line != null) {
                line.show("simulating " + name);
            }
        };
        Reproduction r;
        DeviceSweep sweep;
        Reproduction second = null;
        Sensitivity sens = null;
        try {
            r = Reproduction.run(s, cpus, cost, dir != null, progress);
            sweep = DeviceSweep.run(s, cpus, cost, sweepPoints, r, progress);
            if (dir != null) {
                second = Reproduction.run(s.name.equals("small") ? Reproduction.Scale.standard() : Reproduction.Scale.small(),
                        cpus, cost, false, progress);
            }
            if (sensitivity) {
                sens = Sensitivity.run(s, cpus, progress);
            }
        } catch (Simulator.SimulationException e) {
            if (line != null) {
                line.clear();
            }
            err.println("kmodel: " + e.getMessage());
            err.flush();
            return Kmodel.EXIT_INTERNAL;
        }
        if (line != null) {
            line.clear();
        }
        print(out, r, sens);
        printSweep(out, r, sweep);
        if (dir != null) {
            try {
                List<Path> files = ReproduceReport.write(dir, r, sens, second, sweep);
                out.println("report: " + files.get(0) + " and " + (files.size() - 1) + " charts");
                out.flush();
            } catch (IOException e) {
                err.println("kmodel: --report " + report + ": " + e.getMessage());
                err.flush();
                return Kmodel.EXIT_USAGE;
            }
        }
        return !check || agreesInSeedsRegimes(r, sweep) ? 0 : Kmodel.EXIT_VIOLATION;
    }

    /**
     * Whether every figure moves the seed's way in the seed's regime: seeds 000 and 001 in the
     * table's runs, seed 002 at every sweep point in its regime (and there is one).
     */
    static boolean agreesInSeedsRegimes(Reproduction r, DeviceSweep sweep) {
        for (Reproduction.Row row : r.rows) {
            if (!row.seed.equals("002") && !row.sameDirection()) {
                return false;
            }
        }
        return sweep.agreesInSeedRegime();
    }

    /**
     * The comparison table and its notes; with a sensitivity run, per figure the variants of the
     * cost model (each constant halved and doubled) in which the model still moves the seed's way.
     */
    static void print(PrintWriter out, Reproduction r, Sensitivity sens) {
        out.println("kmodel reproduce: SIMULATED figures (virtual time on the model, cost model "
                + "kmodel.sim.CostModel, " + r.cpus + " CPUs), beside the seeds' published measurements");
        out.println("scale " + r.scale);
        out.println();
        Table t = sens == null ? new Table("SEED", "FIGURE", "PUBLISHED", "CHANGE", "MODEL", "CHANGE", "DIRECTION")
                : new Table("SEED", "FIGURE", "PUBLISHED", "CHANGE", "MODEL", "CHANGE", "DIRECTION", "KEPT IN VARIANTS");
        for (int i = 0; i < r.rows.size(); i++) {
            Reproduction.Row row = r.rows.get(i);
            String pub = fmt(row.publishedVanilla, row.unit) + " -> " + fmt(row.publishedPatched, row.unit);
            String mod = fmt(row.modelVanilla, row.unit) + " -> " + fmt(row.modelPatched, row.unit);
            String dirn = row.sameDirection() ? "same" : "AGAINST";
            if (row.seed.equals("002") && !seriesOutsideRegime(r).isEmpty()) {
                dirn += " (not the seed's regime)";
            }
            if (sens == null) {
                t.row(row.seed, row.figure, pub, pct(row.publishedChange()), mod, pct(row.modelChange()), dirn);
            } else {
                int kept = 0;
                for (Sensitivity.Row v : sens.rows) {
                    if (v.sameDirection.get(i)) {
                        kept++;
                    }
                }
                t.row(row.seed, row.figure, pub, pct(row.publishedChange()), mod, pct(row.modelChange()), dirn,
                        kept + "/" + sens.rows.size());
            }
        }
        t.print(out);
        out.println();
        for (Reproduction.Row row : r.rows) {
            if (row.gap != null) {
                out.println("seed " + row.seed + " " + row.figure + ": the model's change (" + pct(row.modelChange())
                        + ") is far from the seed's (" + pct(row.publishedChange()) + "): " + row.gap + ".");
            }
        }
        if (sens != null) {
            out.println("KEPT IN VARIANTS: of the cost model's constants each halved and doubled (" + sens.rows.size()
                    + " runs at scale " + sens.scale.name + "), the runs in which the figure still moves the seed's way.");
        }
        if (!seriesOutsideRegime(r).isEmpty()) {
            out.println("seed 002 here: " + seriesOutsideRegime(r) + "; the seed's own series was not (about 52% of a "
                    + "CPU), so the sweep below compares seed 002 where the simulated series is not CPU-bound either.");
        }
        out.println();
        out.println(r.allSameDirection() ? "on the table's devices every model figure moves the way the seed's does"
                : "on the table's devices a model figure moves against the seed's (see DIRECTION)");
        out.flush();
    }

    /**
     * Why the table's seed 002 runs are outside the seed's regime ({@link DeviceSweep#SERIES_CPU_LIMIT}),
     * or the empty string when they are in it.
     */
    static String seriesOutsideRegime(Reproduction r) {
        SimResult se = r.runs.get("002/series");
        if (se == null || se.taskCpuShare() < DeviceSweep.SERIES_CPU_LIMIT) {
            return "";
        }
        return String.format(Locale.ROOT, "the simulated series is CPU-bound on the %s profile (%.0f%% of a CPU)",
                "nvme-ssd", se.taskCpuShare() * 100);
    }

    /**
     * Seed 002 over device speed: per device the data sheet's IOPS, what the simulated device
     * serves at queue depth 32, io-wq's and the series' wall time and CPU, the changes, and whether
     * the point is in the seed's regime; then the sources, the regime, the crossover and the verdict
     * in the regime, and the verdict of every seed in its regime.
     */
    static void printSweep(PrintWriter out, Reproduction r, DeviceSweep sweep) {
        out.println();
        out.println("seed 002 over device speed (random 4 KiB reads at queue depth " + DeviceSweep.QUEUE_DEPTH
                + ", scale " + sweep.scale.name + ", " + sweep.cpus + " CPUs; SIMULATED; devices from their data sheets, "
                + "slowest first):");
        out.println();
        Table t = new Table("DEVICE", "IOPS (DATA SHEET)", "AT QD32 (MODEL)", "IO-WQ REAL", "IO-WQ CPU", "SERIES REAL",
                "SERIES CPU", "REAL", "CPU", "PREADV REAL", "SEED'S REGIME");
        for (DeviceSweep.Row row : sweep.rows) {
            t.row(row.point.device.name, DeviceSweep.kiops(row.point.iops), DeviceSweep.kiops(row.point.ceilingIops()),
                    ms(row.iowq.wallNs), cpu(row.iowq), ms(row.series.wallNs), cpu(row.series), pct(row.realChange()),
                    pct(row.cpuChange()), ms(row.preadv.wallNs), row.inSeedRegime() ? "yes" : "no (series CPU-bound)");
        }
        t.print(out);
        out.println();
        out.println("REAL and CPU: series / io-wq - 1 (the seed: " + pct(9.283 / 12.054 - 1) + " and " + pct(52.0 / 82 - 1)
                + "); CPU: the application's and io-wq's CPU time over real time, interrupts left out, as the seed "
                + "counts it; AT QD32: reads a second the simulated device serves at most at queue depth 32.");
        out.println("sources:");
        for (DeviceSweep.Row row : sweep.rows) {
            out.println("  " + row.point.device.name + ": " + row.point.device.source);
        }
        List<DeviceSweep.Row> regime = sweep.seedRegime();
        StringBuilder names = new StringBuilder();
        for (DeviceSweep.Row row : regime) {
            names.append(names.length() == 0 ? "" : ", ").append(row.point.device.name);
        }
        out.println(String.format(Locale.ROOT, "seed's regime (rule fixed before the sweep ran: the simulated series' "
                + "CPU below %.0f%% of one CPU): %s", DeviceSweep.SERIES_CPU_LIMIT * 100,
                regime.isEmpty() ? "no point" : regime.size() + " of " + sweep.rows.size() + " points, " + names));
        List<String> cross = sweep.crossovers();
        out.println("crossover (wall time): " + (cross.isEmpty() ? "none in this sweep" : String.join("; ", cross)));
        if (!regime.isEmpty()) {
            out.println("in the seed's regime: real (io-wq -> series) " + range(regime, 0) + ", CPU (io-wq -> series) "
                    + range(regime, 1) + ", real (preadv -> series) " + range(regime, 2) + "; the seed: "
                    + pct(9.283 / 12.054 - 1) + ", " + pct(52.0 / 82 - 1) + ", " + pct(9.283 / 73.821 - 1));
        }
        List<String> against = new java.util.ArrayList<>();
        for (Reproduction.Row row : r.rows) {
            if (!row.seed.equals("002") && !row.sameDirection()) {
                against.add("seed " + row.seed + " " + row.figure);
            }
        }
        for (DeviceSweep.Row row : regime) {
            for (String f : row.against()) {
                against.add("seed 002 " + f + " on " + row.point.device.name);
            }
        }
        if (regime.isEmpty()) {
            against.add("seed 002: no sweep point in the seed's regime");
        }
        out.println();
        out.println(against.isEmpty() ? "in each seed's regime every model figure moves the way the seed's does"
                : "in the seed's regime a model figure moves against the seed's: " + String.join("; ", against));
        out.flush();
    }

    private static String range(List<DeviceSweep.Row> rows, int figure) {
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (DeviceSweep.Row row : rows) {
            double c = figure == 0 ? row.realChange() : figure == 1 ? row.cpuChange() : row.preadvChange();
            lo = Math.min(lo, c);
            hi = Math.max(hi, c);
        }
        return lo == hi ? pct(lo) : pct(lo) + " to " + pct(hi);
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
    }

    private static String cpu(SimResult s) {
        return String.format(Locale.ROOT, "%.0f%%", s.taskCpuShare() * 100);
    }

    private static String fmt(double v, String unit) {
        if (unit.equals("s")) {
            return v >= 1 ? String.format(Locale.ROOT, "%.3f s", v) : String.format(Locale.ROOT, "%.3f ms", v * 1e3);
        }
        if (unit.equals("%")) {
            return String.format(Locale.ROOT, "%.0f%%", v);
        }
        return String.format(Locale.ROOT, "%.0f %s", v, unit);
    }
}
