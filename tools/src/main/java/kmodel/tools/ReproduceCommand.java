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
import kmodel.sim.Reproduction;
import kmodel.sim.Sensitivity;
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
 * seed's (more than a factor of 2 either way), why. Exit 0 when every figure moves the seed's
 * way, 1 when one does not, 2 bad usage, 3 when the model failed during a simulation.
 */
@Command(name = "reproduce",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = {"Reproduce the seeds' experiments on the virtual-time simulation of the model and compare them "
                + "with the published figures (every model figure is simulated, not measured)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every model figure moves the way the seed's does",
            "1:a model figure moves against the seed's",
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

    @Override
    public Integer call() {
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
                    + (dir != null ? ", report in " + dir : sensitivity ? ", with the sensitivity runs" : ""));
            return 0;
        }
        ProgressLine line = ProgressLine.stderrIsTerminal() ? new ProgressLine(err) : null;
        java.util.function.Consumer<String> progress = name -> {
            if (line != null) {
                line.show("simulating " + name);
            }
        };
        Reproduction r;
        Reproduction second = null;
        Sensitivity sens = null;
        try {
            r = Reproduction.run(s, cpus, CostModel.standard(), dir != null, progress);
            if (dir != null) {
                second = Reproduction.run(s.name.equals("small") ? Reproduction.Scale.standard() : Reproduction.Scale.small(),
                        cpus, CostModel.standard(), false, progress);
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
        if (dir != null) {
            try {
                List<Path> files = ReproduceReport.write(dir, r, sens, second);
                out.println("report: " + files.get(0) + " and " + (files.size() - 1) + " charts");
                out.flush();
            } catch (IOException e) {
                err.println("kmodel: --report " + report + ": " + e.getMessage());
                err.flush();
                return Kmodel.EXIT_USAGE;
            }
        }
        return r.allSameDirection() ? 0 : Kmodel.EXIT_VIOLATION;
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
        out.println();
        out.println(r.allSameDirection() ? "every model figure moves the way the seed's does"
                : "a model figure moves against the seed's (see DIRECTION)");
        out.flush();
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
