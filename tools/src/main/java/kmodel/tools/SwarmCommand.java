package kmodel.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.verification.KconfigTable;
import kmodel.verification.SwarmCheck;
import kmodel.verification.SwarmShrink;
import kmodel.verification.scenarios.SwarmWorlds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code kmodel swarm}: generates {@code --count} random scenarios (recipes) from {@code --seed}
 * and model-checks each one exhaustively within a preemption bound. One line per recipe: its
 * verdict, index, executions and outcomes, the violation kind if any, and the recipe; a failing
 * recipe is followed by the violation, the diagram and a replay token (whose scenario is
 * {@code swarm:<recipe>}, so {@code kmodel replay} rebuilds it). Then a summary line with the
 * violation kinds found and a {@code time:} line (the only line that differs between two runs).
 */
@Command(name = "swarm",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        sortOptions = false,
        description = "Generate small random scenarios from the model's own operations (swarm testing) and "
                + "check each exhaustively within a preemption bound: one line per recipe, then a summary. "
                + "A failing recipe prints its recipe, the violation, the diagram and a replay token.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every recipe passed (clean and complete)",
            "1:a violation was found",
            "2:bad usage",
            "3:kmodel itself failed",
            "4:no violation, but some recipe hit the step bound or its execution budget"
        })
final class SwarmCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of the recipe generator (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--count", paramLabel = "N", defaultValue = "20",
            description = "Recipes to generate and check (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--world", paramLabel = "W",
            description = "Swarm to draw from, repeatable: page, uring, write, btrfs, or all (default: all; "
                    + "recipe i is of the i-th world, cyclically).")
    List<String> worlds = new ArrayList<>();

    @Option(names = "--shrink", paramLabel = "N", defaultValue = "0",
            description = "Shrink each failing recipe to a smallest one failing with the same kind, in at most N "
                    + "checks (default: ${DEFAULT-VALUE}, no shrinking).")
    int shrink;

    @Option(names = "--bug", paramLabel = "ID",
            description = "Switch a catalog bug in (repeatable; see: kmodel bugs).")
    List<String> bugs = new ArrayList<>();

    @Option(names = "--kernel", paramLabel = "PROFILE",
            description = "Kernel profile under every recipe's own settings: every option as that kernel had it, and "
                    + "its known bugs (see: kmodel options). Default: none, the options' declared defaults, as the "
                    + "swarm's documented runs were made.")
    String kernel;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "Set a Kconfig option over every recipe's own settings (repeatable; see: kmodel options).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--preemptions", paramLabel = "N|unbounded", defaultValue = "2",
            converter = CheckCommand.PreemptionsConverter.class,
            description = "Preemption bound of each recipe's exhaustive search, iterated 0..N (default: "
                    + "${DEFAULT-VALUE}); 'unbounded' explores every interleaving with partial-order reduction.")
    int preemptions;

    @Option(names = "--executions", paramLabel = "N",
            description = "Execution budget per recipe (default: " + SwarmCheck.DEFAULT_BUDGET + " for page recipes, "
                    + "10000 for btrfs and write, 2000 for uring).")
    Long executions;

    @Option(names = "--steps", paramLabel = "N", defaultValue = "" + ModelCheck.DEFAULT_STEPS,
            description = "Step bound: scheduling points per execution (default: ${DEFAULT-VALUE}).")
    long steps;

    @Option(names = {"-v", "--verbose"},
            description = "Draw every scheduling point in a counterexample, not only model events.")
    boolean verbose;

    @Override
    public Integer call() {
        CommandLine cmd = spec.commandLine();
        if (count < 1 || count > 1_000_000) {
            throw new Kmodel.OneLine(cmd, "--count must be 1-1000000, got " + count);
        }
        if (executions != null && executions < 1) {
            throw new Kmodel.OneLine(cmd, "--executions must be 1 or more, got " + executions);
        }
        if (steps < 1) {
            throw new Kmodel.OneLine(cmd, "--steps must be 1 or more, got " + steps);
        }
        Kconfig config;
        try {
            config = KconfigTable.build(kernel, sets, bugs);
        } catch (IllegalArgumentException e) {
            throw new Kmodel.OneLine(cmd, e.getMessage());
        }
        if (shrink < 0) {
            throw new Kmodel.OneLine(cmd, "--shrink must be 0 or more, got " + shrink);
        }
        List<String> drawn = new ArrayList<>();
        for (String w : worlds) {
            if (w.equals("all")) {
                drawn.addAll(SwarmWorlds.names());
            } else if (!SwarmWorlds.names().contains(w)) {
                throw new Kmodel.OneLine(cmd, "unknown --world '" + w + "' (known: all, " + String.join(", ", SwarmWorlds.names()) + ")");
            } else {
                drawn.add(w);
            }
        }
        if (drawn.isEmpty()) {
            drawn.addAll(SwarmWorlds.names());
        }
        SwarmCheck swarm = SwarmCheck.of(seed, count).preemptions(preemptions).steps(steps).config(config)
                .verbose(verbose).worlds(drawn);
        if (executions != null) {
            swarm.executions(executions);
        }
        PrintWriter out = cmd.getOut();
        int[] verdicts = new int[CheckResult.Verdict.values().length];
        long[] totals = new long[2];
        TreeMap<String, Integer> kinds = new TreeMap<>();
        swarm.run(e -> {
            CheckResult r = e.result();
            verdicts[r.verdict().ordinal()]++;
            totals[0] += r.executions();
            totals[1] += r.nanos();
            out.println(line(e));
            switch (r.verdict()) {
                case FAIL:
                    kinds.merge(r.kind().label(), 1, Integer::sum);
                    out.println("  recipe: " + e.text());
                    out.println(r.violation().summary());
                    out.print(r.diagram());
                    if (!r.diagram().isEmpty() && !r.diagram().endsWith("\n")) {
                        out.println();
                    }
                    if (r.oops() != null) {
                        out.println("oops stack trace: " + r.oops());
                        for (StackTraceElement el : r.oops().getStackTrace()) {
                            out.println("    at " + el);
                        }
                    }
                    out.println("replay: ./kmodel replay " + r.token());
                    if (shrink > 0) {
                        SwarmShrink.Result sr = SwarmShrink.shrink(e.text(), r, swarm::check, shrink);
                        out.println(String.format(Locale.ROOT, "  shrunk (%d check%s%s): %s", sr.checks,
                                sr.checks == 1 ? "" : "s", sr.cut ? ", cut at --shrink" : "", sr.recipe));
                        out.println("  replay shrunk: ./kmodel replay " + sr.result.token());
                    }
                    break;
                case BOUND:
                    out.println("  step bound: " + r.firstStepBound());
                    break;
                default:
                    break;
            }
            out.flush();
        });
        int failed = verdicts[CheckResult.Verdict.FAIL.ordinal()];
        int bound = verdicts[CheckResult.Verdict.BOUND.ordinal()];
        int incomplete = verdicts[CheckResult.Verdict.INCOMPLETE.ordinal()];
        StringBuilder summary = new StringBuilder(String.format(Locale.ROOT, "%d recipe%s (seed %d%s): %d passed, %d failed",
                count, count == 1 ? "" : "s", seed, kernel == null ? "" : ", kernel " + kernel,
                verdicts[CheckResult.Verdict.PASS.ordinal()], failed));
        if (bound > 0) {
            summary.append(String.format(Locale.ROOT, ", %d stopped at the step bound", bound));
        }
        if (incomplete > 0) {
            summary.append(String.format(Locale.ROOT, ", %d incomplete", incomplete));
        }
        summary.append(String.format(Locale.ROOT, "; %d executions", totals[0]));
        if (!kinds.isEmpty()) {
            StringBuilder k = new StringBuilder();
            kinds.forEach((kind, n) -> k.append(k.length() > 0 ? ", " : "").append(kind).append(" x").append(n));
            summary.append("; found: ").append(k);
        }
        out.println(summary);
        double seconds = totals[1] / 1e9;
        out.println(String.format(Locale.ROOT, "time: %.2f s (%.0f executions/s)", seconds,
                seconds > 0 ? totals[0] / seconds : 0.0));
        out.flush();
        if (failed > 0) {
            return Kmodel.EXIT_VIOLATION;
        }
        return bound + incomplete > 0 ? Kmodel.EXIT_INCONCLUSIVE : 0;
    }

    /** {@code PASS #3  812 executions, 4 outcomes, exhaustive, preemption bound 2  pages=...}. */
    private static String line(SwarmCheck.Entry e) {
        CheckResult r = e.result();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%s #%d  %d execution%s, %d outcome%s, %s", r.verdict(), e.index(),
                r.executions(), r.executions() == 1 ? "" : "s", r.distinctOutcomes(),
                r.distinctOutcomes() == 1 ? "" : "s", r.strategy()));
        if (r.budgetReached()) {
            sb.append(" (budget reached, not exhaustive)");
        }
        if (r.violation() != null) {
            sb.append(": ").append(r.kind().label());
        }
        if (r.stepBoundHits() > 0) {
            sb.append(String.format(Locale.ROOT, " (%d executions stopped at the step bound)", r.stepBoundHits()));
        }
        return sb.append("  ").append(e.text()).toString();
    }
}
