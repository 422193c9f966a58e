package kmodel.tools;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import kmodel.verification.sim.CostModel;
import kmodel.verification.sim.Reproduction;
import kmodel.verification.sim.Simulator;
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

    @Override
    public Integer call() {
        Reproduction.Scale s;
        switch (scale) {
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
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean tty = System.console() != null;
        Reproduction r;
        try {
            r = Reproduction.run(s, cpus, CostModel.standard(), false, name -> {
                if (tty) {
                    err.print("\r\u001b[Ksimulating " + name);
                    err.flush();
                }
            });
        } catch (Simulator.SimulationException e) {
            if (tty) {
                err.print("\r\u001b[K");
            }
            err.println("kmodel: " + e.getMessage());
            err.flush();
            return Kmodel.EXIT_INTERNAL;
        }
        if (tty) {
            err.print("\r\u001b[K");
            err.flush();
        }
        print(out, r);
        return r.allSameDirection() ? 0 : Kmodel.EXIT_VIOLATION;
    }

    /** The comparison table and its notes. */
    static void print(PrintWriter out, Reproduction r) {
        out.println("kmodel reproduce: SIMULATED figures (virtual time on the model, cost model "
                + "kmodel.verification.sim.CostModel, " + r.cpus + " CPUs), beside the seeds' published measurements");
        out.println("scale " + r.scale);
        out.println();
        Table t = new Table("SEED", "FIGURE", "PUBLISHED", "CHANGE", "MODEL", "CHANGE", "DIRECTION");
        for (Reproduction.Row row : r.rows) {
            t.row(row.seed, row.figure,
                    fmt(row.publishedVanilla, row.unit) + " -> " + fmt(row.publishedPatched, row.unit),
                    pct(row.publishedChange()),
                    fmt(row.modelVanilla, row.unit) + " -> " + fmt(row.modelPatched, row.unit),
                    pct(row.modelChange()),
                    row.sameDirection() ? "same" : "AGAINST");
        }
        t.print(out);
        out.println();
        for (Reproduction.Row row : r.rows) {
            if (row.gap != null) {
                out.println("seed " + row.seed + " " + row.figure + ": the model's change (" + pct(row.modelChange())
                        + ") is far from the seed's (" + pct(row.publishedChange()) + "): " + row.gap + ".");
            }
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

    private static String pct(double change) {
        return String.format(Locale.ROOT, "%+.1f%%", change * 100);
    }
}
