package kmodel.tools;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.verification.KconfigTable;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;
import kmodel.verification.world.Scenario;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel bench}: how fast the checker is and how much the reduction saves, as one report.
 *
 * <ul>
 *   <li>Per scenario: the unbounded search with optimal DPOR ({@code --preemptions unbounded
 *       --reduction dpor}) and without reduction ({@code --reduction none}), each cut by the
 *       execution budget ({@code --executions}): executions, whether the search was complete or
 *       cut ({@code budget}), executions per second, and the reduction ratio (plain executions
 *       over reduced ones; {@code >} when only the plain search was cut, so the true ratio is
 *       larger; {@code -} when the reduced search was cut too).</li>
 *   <li>Per catalog bug: executions and time to the first counterexample, by the search at
 *       preemption bound 2 ({@code BOUND 2}: iterated from 0, with {@link ModelCheck}'s default
 *       reduction, bounded DPOR) and by the unbounded reduced search ({@code DPOR}).</li>
 *   <li>Nanoseconds per scheduling point on the running JVM ({@link SchedulingPoints}), by JMH
 *       (one fork with {@code kmodel}'s JVM options) or, with {@code --no-jmh}, a plain timed loop.</li>
 * </ul>
 * Before the first row, both searches run once on the first scenario for at most
 * {@value #WARMUP} executions, unmeasured, so that the first row is not the JIT's warm-up.
 * Every figure is a measurement of this run, printed, never asserted; the executions columns are
 * deterministic (the same as {@code kmodel check} prints for the same search).
 *
 * <p>{@code --before-after} prints instead, per scenario, the default check (the portfolio, one
 * job, the default kernel profile) with the reduced search before 2026-12-02 ({@code --reduction source}:
 * source-DPOR, no sleep sets under a bound) and as it is now (optimal DPOR, preemption-aware sleep
 * sets under a bound) side by side: executions,
 * time, the share that ended sleep-set blocked, and what was proved; then the totals.
 */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        sortOptions = false,
        description = "Measure the checker: per scenario, executions with and without partial-order reduction "
                + "(unbounded, each cut by the execution budget), complete or cut, executions/s and the reduction "
                + "ratio; per catalog bug, the time to the first counterexample; nanoseconds per scheduling point "
                + "on this JVM. Prints one report; takes a few minutes (--quick: a tenth of the budget, a shorter JMH run).")
final class BenchCommand implements Callable<Integer> {
    /** Default execution budget of each search: keeps the whole bench to a few minutes on 2 cores. */
    static final long DEFAULT_BUDGET = 100_000;
    /** The budget under {@code --quick}. */
    static final long QUICK_BUDGET = 10_000;
    /** Executions of each unmeasured warm-up search (on the first scenario). */
    static final long WARMUP = 5_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Measure only this scenario (repeatable; default: every scenario kmodel check runs).")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--bug", paramLabel = "ID",
            description = "Time this catalog bug (repeatable; default: the catalog bugs of the scenarios measured).")
    List<String> bugs = new ArrayList<>();

    @Option(names = "--kernel", paramLabel = "PROFILE",
            description = "Kernel profile of every search: every option as that kernel had it, and its known bugs (see: "
                    + "kmodel options). Default: none, the options' declared defaults, as the documented figures were "
                    + "measured.")
    String kernel;

    @Option(names = "--executions", paramLabel = "N",
            description = "Execution budget of each search (default: " + DEFAULT_BUDGET + ", with --quick "
                    + QUICK_BUDGET + ").")
    Long executions;

    @Option(names = "--quick", description = "A small budget and a short JMH run: a first look, not a figure to quote.")
    boolean quick;

    @Option(names = "--before-after",
            description = "Instead of the report: per scenario, the default check as kmodel check runs it (the portfolio, "
                    + "on one job; --executions is its budget) with the reduced search before 2026-12-02 "
                    + "(--reduction source: no wakeup trees, no sleep sets under a bound) and as it is now: executions, time, the share that ended sleep-set blocked, "
                    + "and complete or the preemption bound proved; then the totals.")
    boolean beforeAfter;

    @Option(names = "--jmh", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Time the scheduling point with JMH (default), or with a plain timed loop (--no-jmh).")
    boolean jmh;

    @Override
    public Integer call() {
        if (System.getProperty(CheckCommand.CARRIERS) == null) {
            // Before the first virtual thread: one carrier, as the figures were measured (./kmodel
            // leaves the carriers to check --jobs).
            System.setProperty(CheckCommand.CARRIERS, "1");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (executions != null && executions < 1) {
            throw new Kmodel.OneLine(spec.commandLine(), "--executions must be 1 or more, got " + executions);
        }
        if (beforeAfter && (quick || !bugs.isEmpty())) {
            throw new Kmodel.OneLine(spec.commandLine(), "--before-after does not go with --quick or --bug");
        }
        long budget = executions != null ? executions : quick ? QUICK_BUDGET : DEFAULT_BUDGET;
        List<Scenario<?>> selected = new ArrayList<>();
        List<CatalogBug> timed = new ArrayList<>();
        Kconfig base;
        try {
            base = KconfigTable.build(kernel, List.of(), List.of());
            ScenarioRegistry registry = ScenarioRegistry.everything();
            if (scenarios.isEmpty()) {
                selected.addAll(ScenarioRegistry.standard().all());
            } else {
                for (String name : new LinkedHashSet<>(scenarios)) {
                    selected.add(registry.get(name));
                }
            }
            for (String id : new LinkedHashSet<>(bugs)) {
                CatalogBug b = BugCatalog.find(id);
                if (b == null) {
                    throw new IllegalArgumentException("unknown bug '" + id + "' (see: kmodel bugs)");
                }
                timed.add(b);
            }
        } catch (IllegalArgumentException e) {
            throw new Kmodel.OneLine(spec.commandLine(), e.getMessage());
        }
        if (bugs.isEmpty()) {
            for (CatalogBug b : BugCatalog.all()) {
                for (Scenario<?> s : selected) {
                    if (s.name().equals(b.scenario())) {
                        timed.add(b);
                    }
                }
            }
        }
        if (beforeAfter) {
            return beforeAfter(selected, executions);
        }
        long started = System.nanoTime();
        ProgressLine line = ProgressLine.stderrIsTerminal() ? new ProgressLine(spec.commandLine().getErr()) : null;

        out.println(String.format(Locale.ROOT, "kmodel bench: JDK %s, %s; each search cut at %,d executions%s",
                System.getProperty("java.version"),
                DeterministicRuntime.virtualThreads() ? "tasks on virtual threads" : "tasks on platform threads", budget,
                kernel == null ? "" : "; kernel " + kernel));
        out.println();
        // Warm-up, not measured: the JIT compiles the runtime and both searches before the first row.
        unbounded(selected.get(0), base, true, Math.min(budget, WARMUP), line, "warm-up ");
        unbounded(selected.get(0), base, false, Math.min(budget, WARMUP), line, "warm-up ");
        Table t = new Table("SCENARIO", "DPOR EXECS", "DPOR", "DPOR EXEC/S", "PLAIN EXECS", "PLAIN", "PLAIN EXEC/S",
                "REDUCTION");
        for (Scenario<?> s : selected) {
            CheckResult dpor = unbounded(s, base, true, budget, line, "dpor ");
            CheckResult plain = unbounded(s, base, false, budget, line, "plain ");
            t.row(s.name(), count(dpor.executions()), status(dpor), rate(dpor), count(plain.executions()), status(plain),
                    rate(plain), ratio(dpor, plain));
        }
        t.print(out);

        if (!timed.isEmpty()) {
            out.println();
            Table b = new Table("CATALOG BUG", "SCENARIO", "BOUND 2", "EXECS", "TIME", "DPOR", "EXECS", "TIME");
            for (CatalogBug bug : timed) {
                Scenario<?> s = ScenarioRegistry.everything().get(bug.scenario());
                Kconfig config = KconfigTable.build(kernel, List.of(), List.of(bug.id()));
                CheckResult bounded = withProgress(ModelCheck.exhaustive(s).config(config).executions(budget), line,
                        "bound 2 " + bug.id() + " ").run();
                clear(line);
                CheckResult reduced = unbounded(s, config, true, budget, line, bug.id() + " ");
                b.row(bug.id(), bug.scenario(), found(bounded, bug), count(bounded.executions()), seconds(bounded),
                        found(reduced, bug), count(reduced.executions()), seconds(reduced));
            }
            b.print(out);
        }

        out.println();
        out.println(schedulingPoint());
        out.println(String.format(Locale.ROOT, "time: %.1f s", (System.nanoTime() - started) / 1e9));
        out.flush();
        return 0;
    }

    /**
     * {@code --before-after}: the default check of each scenario (as {@code kmodel check --jobs 1} runs
     * it: the portfolio, the default kernel profile) as before 2026-12-02 ({@code --reduction source}) and
     * as now, side by side, and the totals. The executions, blocked and
     * strength columns are deterministic; the times are one run's.
     */
    private int beforeAfter(List<Scenario<?>> selected, Long budget) {
        PrintWriter out = spec.commandLine().getOut();
        ProgressLine line = ProgressLine.stderrIsTerminal() ? new ProgressLine(spec.commandLine().getErr()) : null;
        long started = System.nanoTime();
        out.println(String.format(Locale.ROOT, "kmodel bench --before-after: JDK %s, %s; the default check (portfolio, "
                + "one job, budget %s) before (--reduction source: source-DPOR, no sleep sets under a bound) and after (optimal "
                + "DPOR with wakeup trees, preemption-aware sleep sets under a bound)",
                System.getProperty("java.version"),
                DeterministicRuntime.virtualThreads() ? "tasks on virtual threads" : "tasks on platform threads",
                budget != null ? count(budget) : count(ModelCheck.DEFAULT_EXHAUSTIVE_BUDGET)));
        out.println();
        // Warm-up, not measured: the JIT compiles the runtime and both searches before the first row.
        defaultCheck(selected.get(0), true, Math.min(budget != null ? budget : WARMUP, WARMUP), line, "warm-up ");
        defaultCheck(selected.get(0), false, Math.min(budget != null ? budget : WARMUP, WARMUP), line, "warm-up ");
        Table t = new Table("SCENARIO", "BEFORE EXECS", "TIME", "BLOCKED", "PROVED", "AFTER EXECS", "TIME", "BLOCKED",
                "PROVED");
        long[] sum = new long[6]; // executions, blocked, complete: before, after
        long[] nanos = new long[2];
        for (Scenario<?> s : selected) {
            CheckResult before = defaultCheck(s, true, budget, line, "before ");
            CheckResult after = defaultCheck(s, false, budget, line, "after ");
            CheckResult[] both = {before, after};
            for (int i = 0; i < 2; i++) {
                sum[3 * i] += both[i].executions();
                sum[3 * i + 1] += both[i].sleepBlocked();
                sum[3 * i + 2] += proved(both[i]).equals("complete") ? 1 : 0;
                nanos[i] += both[i].nanos();
            }
            t.row(s.name(), count(before.executions()), seconds(before), share(before.sleepBlocked(), before.executions()),
                    proved(before), count(after.executions()), seconds(after),
                    share(after.sleepBlocked(), after.executions()), proved(after));
        }
        t.row("all " + selected.size(), count(sum[0]), String.format(Locale.ROOT, "%.1f s", nanos[0] / 1e9),
                share(sum[1], sum[0]), sum[2] + " complete", count(sum[3]),
                String.format(Locale.ROOT, "%.1f s", nanos[1] / 1e9), share(sum[4], sum[3]), sum[5] + " complete");
        t.print(out);
        out.println();
        out.println(String.format(Locale.ROOT, "time: %.1f s", (System.nanoTime() - started) / 1e9));
        out.flush();
        return 0;
    }

    /** The default check of {@code s} (the portfolio, one job), before ({@code source}) or after wakeup trees. */
    private static CheckResult defaultCheck(Scenario<?> s, boolean source, Long budget, ProgressLine line, String what) {
        // the configuration kmodel check gives it: the default kernel profile, nothing set
        ModelCheck check = ModelCheck.portfolio(s).config(KconfigTable.build(kmodel.verification.Profiles.DEFAULT,
                List.of(), List.of())).sourceSets(source).jobs(1);
        if (budget != null) {
            check.executions(budget);
        }
        CheckResult r = withProgress(check, line, what).run();
        clear(line);
        return r;
    }

    private static final java.util.regex.Pattern BOUND = java.util.regex.Pattern.compile("preemption bound (\\d+)");

    /** What a check proved: {@code complete}, {@code bound N} (every execution within N preemptions), or its status. */
    static String proved(CheckResult r) {
        if (r.verdict() == CheckResult.Verdict.FAIL) {
            return r.kind().label();
        }
        if (r.strategy().contains(", complete")) {
            return r.verdict() == CheckResult.Verdict.PASS ? "complete" : status(r);
        }
        java.util.regex.Matcher m = BOUND.matcher(r.strategy());
        if (!m.find()) {
            return status(r);
        }
        String bound = "bound " + m.group(1);
        return r.verdict() == CheckResult.Verdict.PASS ? bound : bound + " (" + status(r) + ")";
    }

    /** {@code part} of {@code of} as a percentage. */
    private static String share(long part, long of) {
        return of == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / of);
    }

    private static CheckResult unbounded(Scenario<?> s, Kconfig config, boolean reduction, long budget, ProgressLine line,
            String what) {
        ModelCheck check = ModelCheck.exhaustive(s).config(config).preemptions(ModelCheck.UNBOUNDED)
                .reduction(reduction).executions(budget);
        CheckResult r = withProgress(check, line, what).run();
        clear(line);
        return r;
    }

    private static ModelCheck withProgress(ModelCheck check, ProgressLine line, String prefix) {
        if (line != null) {
            line.prefix("bench " + prefix);
            check.progress(line::show, ProgressLine.PERIOD_NANOS);
        }
        return check;
    }

    private static void clear(ProgressLine line) {
        if (line != null) {
            line.clear();
        }
    }

    /** {@code complete}, {@code budget} (cut by the execution budget), {@code step bound}, or the violation. */
    static String status(CheckResult r) {
        switch (r.verdict()) {
            case PASS:
                return "complete";
            case FAIL:
                return r.kind().label();
            case BOUND:
                return "step bound";
            default:
                return "budget";
        }
    }

    /** Plain over reduced executions; see the class comment for {@code >} and {@code -}. */
    static String ratio(CheckResult dpor, CheckResult plain) {
        if (dpor.verdict() != CheckResult.Verdict.PASS || dpor.executions() == 0) {
            return "-";
        }
        double x = plain.executions() / (double) dpor.executions();
        return String.format(Locale.ROOT, "%s%.1fx", plain.verdict() == CheckResult.Verdict.PASS ? "" : ">", x);
    }

    /** The violation kind found (marked when it is not the one the catalog expects), or "not found". */
    private static String found(CheckResult r, CatalogBug bug) {
        if (r.kind() == null) {
            return r.verdict() == CheckResult.Verdict.PASS ? "not found" : "not found (" + status(r) + ")";
        }
        return r.kind() == bug.kind() ? r.kind().label() : r.kind().label() + " (expected " + bug.kind().label() + ")";
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String rate(CheckResult r) {
        return String.format(Locale.ROOT, "%,.0f", r.executionsPerSecond());
    }

    private static String seconds(CheckResult r) {
        return String.format(Locale.ROOT, "%.2f s", r.nanos() / 1e9);
    }

    /** The scheduling-point line: by JMH, or by a timed loop with --no-jmh. */
    private String schedulingPoint() {
        String threads = DeterministicRuntime.virtualThreads() ? "virtual threads" : "platform threads";
        if (!jmh) {
            SchedulingPoints switching = new SchedulingPoints(SchedulingPoints.Schedule.SWITCH);
            SchedulingPoints staying = new SchedulingPoints(SchedulingPoints.Schedule.STAY);
            int n = quick ? 5 : 50;
            double sw = switching.timedLoop(n, n);
            double st = staying.timedLoop(n, n);
            return String.format(Locale.ROOT, "scheduling point (%s, timed loop, %d executions of 2 tasks x %,d points): "
                    + "%.0f ns switching at every point, %.0f ns never switching", threads, n,
                    SchedulingPoints.POINTS_PER_TASK, sw, st);
        }
        int warmups = quick ? 1 : 3;
        int measured = quick ? 2 : 5;
        Options options = new OptionsBuilder()
                .include(SchedulingPointBenchmark.class.getName().replace(".", "\\.") + "\\..*")
                .forks(1)
                .warmupIterations(warmups)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(measured)
                .measurementTime(TimeValue.seconds(1))
                .timeUnit(TimeUnit.NANOSECONDS)
                .jvmArgs(ManagementFactory.getRuntimeMXBean().getInputArguments().toArray(new String[0]))
                .verbosity(VerboseMode.SILENT)
                .build();
        Collection<RunResult> results;
        try {
            results = new Runner(options).run();
        } catch (RunnerException e) {
            throw new IllegalStateException("JMH failed: " + e.getMessage(), e);
        }
        double sw = Double.NaN;
        double st = Double.NaN;
        double swErr = Double.NaN;
        double stErr = Double.NaN;
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            if (name.endsWith(".switchAtEveryPoint")) {
                sw = r.getPrimaryResult().getScore();
                swErr = r.getPrimaryResult().getScoreError();
            } else if (name.endsWith(".neverSwitch")) {
                st = r.getPrimaryResult().getScore();
                stErr = r.getPrimaryResult().getScoreError();
            }
        }
        return String.format(Locale.ROOT, "scheduling point (%s, JMH: 1 fork, %d x 1 s warm-up, %d x 1 s measured, "
                + "2 tasks x %,d points): %s switching at every point, %s never switching",
                threads, warmups, measured, SchedulingPoints.POINTS_PER_TASK, nanos(sw, swErr), nanos(st, stErr));
    }

    /** A JMH score in ns, with its 99.9% error when JMH has one (it needs a few iterations). */
    private static String nanos(double score, double error) {
        return Double.isNaN(error) ? String.format(Locale.ROOT, "%.0f ns", score)
                : String.format(Locale.ROOT, "%.0f ± %.0f ns", score, error);
    }
}
