package kmodel.tools;

import com.google.common.base.Ticker;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import kmodel.explorer.CheckPool;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.verification.KconfigTable;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.world.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code kmodel check}: explores every registered scenario (or the named ones) on one
 * configuration. One line per scenario starting with its verdict ({@link CheckResult.Verdict}):
 * {@code PASS} (clean and complete), {@code FAIL} (a violation), {@code BOUND} (no violation, but
 * some execution stopped at the step bound) or {@code INCOMPLETE} (no violation, but the execution
 * budget cut the exhaustive search); for a violation its kind and message, the counterexample
 * diagram and a {@code replay:} line; for a step-bound stop, the first one. Then a summary line
 * and, last, a {@code time:} line (wall time; the only line that differs between two runs).
 *
 * <p>Scenarios run side by side on {@code --jobs N} threads, and each exhaustive search is split
 * into units ({@link kmodel.explorer.SplitExplorer}) that run side by side too; the lines do
 * not depend on N. {@code --shard I/N --json FILE} explores one shard of every search and writes
 * it, for {@code kmodel merge} ({@link ShardRun}).
 */
@Command(name = "check",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        sortOptions = false,
        description = "Explore the scenarios' interleavings and report violations: one PASS/FAIL/BOUND/INCOMPLETE "
                + "line per scenario, then a summary. PASS means no violation, no execution stopped at the step "
                + "bound and a finished search. A violation also prints its kind, the counterexample diagram "
                + "and a replay token.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every scenario passed (clean and complete)",
            "1:a violation was found",
            "2:bad usage",
            "3:kmodel itself failed",
            "4:no violation, but some scenario hit the step bound (BOUND) or the execution or time budget (INCOMPLETE)"
        })
final class CheckCommand implements Callable<Integer> {
    /** {@code --strategy} values. */
    enum StrategyName {
        AUTO(ModelCheck.Kind.AUTO),
        EXHAUSTIVE(ModelCheck.Kind.EXHAUSTIVE),
        DELAY(ModelCheck.Kind.EXHAUSTIVE),
        PCT(ModelCheck.Kind.PCT),
        RANDOM(ModelCheck.Kind.RANDOM);

        final ModelCheck.Kind kind;

        StrategyName(ModelCheck.Kind kind) {
            this.kind = kind;
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Parses {@code --strategy}, naming the choices in lower case when the value fits none. */
    static final class StrategyConverter implements CommandLine.ITypeConverter<StrategyName> {
        @Override
        public StrategyName convert(String value) {
            for (StrategyName s : StrategyName.values()) {
                if (s.toString().equalsIgnoreCase(value)) {
                    return s;
                }
            }
            throw new CommandLine.TypeConversionException("expected auto, exhaustive, delay, pct or random, got '"
                    + value + "'");
        }
    }

    /** {@code --memory-model}: {@code sc} or {@code lkmm}, nothing else. */
    static final class MemoryModelConverter implements CommandLine.ITypeConverter<kmodel.kernel.MemoryModel> {
        @Override
        public kmodel.kernel.MemoryModel convert(String value) {
            kmodel.kernel.MemoryModel m = kmodel.kernel.MemoryModel.of(value);
            if (m == null) {
                throw new CommandLine.TypeConversionException("expected sc or lkmm, got '" + value + "'");
            }
            return m;
        }
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Check only this scenario (repeatable; default: every scenario, see: kmodel scenarios).")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--bug", paramLabel = "ID",
            description = "Switch a catalog bug in (repeatable; see: kmodel bugs).")
    List<String> bugs = new ArrayList<>();

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "Set a Kconfig option (repeatable; see: kmodel options).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--kernel", paramLabel = "PROFILE", defaultValue = kmodel.verification.Profiles.DEFAULT,
            description = "Kernel profile: every option as that kernel had it, and its known bugs "
                    + "(default: ${DEFAULT-VALUE}; see: kmodel options). --set and --bug apply over it.")
    String kernel;

    @Option(names = "--memory-model", paramLabel = "sc|lkmm", defaultValue = "sc", converter = MemoryModelConverter.class,
            description = "Memory model (default: ${DEFAULT-VALUE}). sc: every load reads the latest store. lkmm: the "
                    + "LKMM approximation (docs/memory-model.md): a load may read any store its task's view allows, a "
                    + "choice of the search; barriers and ordered accesses order as the kernel documents them. Goes "
                    + "into results, --json and replay tokens.")
    kmodel.kernel.MemoryModel memoryModel;

    @Option(names = "--strategy", paramLabel = "auto|exhaustive|delay|pct|random", defaultValue = "auto",
            converter = StrategyConverter.class,
            description = "Exploration strategy (default: ${DEFAULT-VALUE}). auto: the unbounded reduced search within "
                    + "20,000 executions; where it does not finish, bounded DPOR (the proof, to preemption bound 3), "
                    + "delay bounding and PCT share the budget round robin, and the line says what was proved and what "
                    + "only sampled; with --preemptions N|unbounded, --reduction none or --shard it is exhaustive. "
                    + "exhaustive: depth-first search by preemption bound; delay: depth-first search by delay bound "
                    + "(--delay-bound); pct, random: sampled.")
    StrategyName strategy;

    /** The largest {@code --delay-bound}: the search is iterated 0..D. */
    static final int MAX_DELAY_BOUND = 1000;

    @Option(names = "--delay-bound", paramLabel = "D",
            description = "Delay bound of --strategy delay, iterated 0..D, D at most " + MAX_DELAY_BOUND
                    + " (default: 2). A pass is only 'within delay bound D'.")
    Integer delayBound;

    /**
     * The largest {@code --preemptions} bound: iterative bounding runs one search per bound
     * 0..N, and a bound near {@code Integer.MAX_VALUE} would overflow that loop; no scenario
     * needs more than a handful (use {@code unbounded} for every interleaving).
     */
    static final int MAX_PREEMPTIONS = 1000;

    /**
     * The largest PCT {@code --depth}: PCT draws {@code d - 1} priority change points per
     * execution, so the depth sizes an array and a loop in every execution.
     */
    static final int MAX_DEPTH = 1000;

    /**
     * Parses {@code --preemptions}: a bound from 0 to {@link #MAX_PREEMPTIONS}, {@code unbounded}
     * or {@code auto}.
     */
    static final class PreemptionsConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            String v = value; // as written (Values): no white space
            if (v.equalsIgnoreCase("unbounded")) {
                return ModelCheck.UNBOUNDED;
            }
            if (v.equalsIgnoreCase("auto")) {
                return ModelCheck.AUTO;
            }
            if (v.matches("[0-9]{1,9}")) {
                int n = Integer.parseInt(v);
                if (n <= MAX_PREEMPTIONS) {
                    return n;
                }
            }
            throw new CommandLine.TypeConversionException("expected a bound from 0 to " + MAX_PREEMPTIONS
                    + ", 'unbounded' or 'auto', got '" + value + "'");
        }
    }

    /** {@code --reduction} values. */
    enum Reduction {
        DPOR, SOURCE, NONE;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Parses {@code --reduction}. */
    static final class ReductionConverter implements CommandLine.ITypeConverter<Reduction> {
        @Override
        public Reduction convert(String value) {
            for (Reduction r : Reduction.values()) {
                if (r.toString().equalsIgnoreCase(value)) {
                    return r;
                }
            }
            throw new CommandLine.TypeConversionException("expected dpor, source or none, got '" + value + "'");
        }
    }

    @Option(names = "--preemptions", paramLabel = "N|unbounded|auto", defaultValue = "auto",
            converter = PreemptionsConverter.class,
            description = "Preemption bound of exhaustive search, iterated 0..N, N at most " + MAX_PREEMPTIONS
                    + "; 'unbounded' explores every interleaving, and a finished search is complete for the "
                    + "scenario; 'auto' (the default) tries unbounded within 20,000 executions, then falls back "
                    + "to bound 3.")
    int preemptions;

    @Option(names = "--reduction", paramLabel = "dpor|source|none", defaultValue = "dpor",
            converter = ReductionConverter.class,
            description = "Partial-order reduction of exhaustive search: dpor (unbounded: optimal DPOR with wakeup "
                    + "trees and sleep sets; with a bound, Coons et al.'s bounded POR), source (unbounded: source-DPOR "
                    + "with sleep sets and no wakeup trees, the algorithm before 2026-12-02, for comparison) or none "
                    + "(plain DFS, for comparison) "
                    + "(default: ${DEFAULT-VALUE}).")
    Reduction reduction;

    @Option(names = "--audit-footprints",
            description = "Run the reduced search under the footprint audit: every plain field and array element "
                    + "access of the model is seen, and two tasks' conflicting accesses that the steps' footprints "
                    + "leave unordered are an ERROR of the scenario (one job; slower).")
    boolean auditFootprints;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of pct and random (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--executions", paramLabel = "N",
            description = "Executions of pct/random (default: " + ModelCheck.DEFAULT_SAMPLED
                    + "), or the budget of exhaustive, delay and auto search (default: "
                    + ModelCheck.DEFAULT_EXHAUSTIVE_BUDGET + "; auto's samplers' executions count against it).")
    Long executions;

    @Option(names = "--depth", paramLabel = "D",
            description = "PCT bug depth d, 1 to " + MAX_DEPTH + " (default: 3).")
    Integer depth;

    @Option(names = "--steps", paramLabel = "N", defaultValue = "" + ModelCheck.DEFAULT_STEPS,
            description = "Step bound: scheduling points per execution (default: ${DEFAULT-VALUE}).")
    long steps;

    @Option(names = "--time-budget", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Stop when this much time has passed (e.g. 30s, 5m, 1h30m), for all scenarios together: "
                    + "the scenario under way, and any not started, are INCOMPLETE and say what was covered.")
    Duration timeBudget;

    @Option(names = "--progress", negatable = true,
            description = "Show a progress line on stderr; the scenarios then run one after another, each unsplit on "
                    + "one job (default: only with --time-budget and when stderr is a terminal; split runs show none).")
    Boolean progress;

    /** The clock of --time-budget and the progress line; tests inject a fake one. */
    Ticker ticker = Ticker.systemTicker();

    @Option(names = {"-v", "--verbose"},
            description = "Draw every scheduling point in a counterexample, not only model events.")
    boolean verbose;

    @Override
    public Integer call() {
        validate();
        CommandLine cmd = spec.commandLine();
        ScenarioRegistry registry = ScenarioRegistry.everything();
        Kconfig config;
        List<Scenario<?>> selected = new ArrayList<>();
        try {
            config = KconfigTable.build(kernel, sets, bugs).withMemoryModel(memoryModel);
            if (auditFootprints && memoryModel != kmodel.kernel.MemoryModel.SC) {
                throw new IllegalArgumentException("--audit-footprints runs under --memory-model sc only");
            }
            if (scenarios.isEmpty()) {
                selected.addAll(ScenarioRegistry.standard().all());
            } else {
                for (String name : new LinkedHashSet<>(scenarios)) {
                    try {
                        selected.add(registry.get(name));
                    } catch (IllegalArgumentException e) {
                        // a bad swarm:<recipe> names the recipe's fault, not where it was given
                        String m = e.getMessage();
                        throw new IllegalArgumentException(m != null && m.startsWith("swarm recipe") ? "--scenario: " + m : m);
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            throw new Kmodel.OneLine(cmd, e.getMessage());
        }

        PrintWriter out = cmd.getOut();
        int nJobs = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (System.getProperty(CARRIERS) == null) {
            // Before the first virtual thread: one carrier per job (kmodel passes none by default).
            System.setProperty(CARRIERS, Integer.toString(nJobs));
        }
        if (auditFootprints) {
            return AuditRun.run(out, selected, preemptions, executions, sets, bugs);
        }
        long start = System.nanoTime();
        if (timeBudget != null || progress == Boolean.TRUE) {
            // One time budget for the whole command, and the progress line of one search at a
            // time: the scenarios run one after another, each unsplit (--jobs does not apply).
            List<CheckResult> results = new ArrayList<>();
            int code = report(out, sequential(cmd, selected, config), results, start, SUM_OF_RESULTS);
            if (json != null) {
                ShardRun.writeJson(this, results, 1, System.nanoTime() - start, json);
            }
            return code;
        }
        try (CheckPool pool = new CheckPool(nJobs)) {
            if (shard != null) {
                return ShardRun.shard(this, out, selected, config, pool, shard.index, shard.count, json);
            }
            List<java.util.function.Supplier<CheckResult>> running = new ArrayList<>();
            for (CompletableFuture<CheckResult> f : ShardRun.startAll(this, selected, config, pool)) {
                running.add(() -> CheckPool.join(f));
            }
            List<CheckResult> results = new ArrayList<>();
            int code = report(out, running, results, start, -1);
            if (json != null) {
                ShardRun.writeJson(this, results, nJobs, System.nanoTime() - start, json);
            }
            return code;
        }
    }

    /**
     * The scenarios one after another, unsplit, on this thread's runtime, with the time budget
     * shared between them and the progress line (when on) for the search under way.
     */
    private List<java.util.function.Supplier<CheckResult>> sequential(CommandLine cmd, List<Scenario<?>> selected,
            Kconfig config) {
        ProgressLine line = (progress != null ? progress : ProgressLine.stderrIsTerminal())
                ? new ProgressLine(cmd.getErr()) : null;
        long start = ticker.read();
        List<java.util.function.Supplier<CheckResult>> out = new ArrayList<>();
        int[] index = {0};
        for (Scenario<?> s : selected) {
            out.add(() -> {
                ModelCheck check = newCheck(s).config(config).ticker(ticker);
                if (timeBudget != null) {
                    // One budget for the whole command: each scenario gets what is left (maybe nothing).
                    check.timeBudget(Duration.ofNanos(Math.max(0, timeBudget.toNanos() - (ticker.read() - start))));
                }
                if (line != null) {
                    line.prefix(String.format(Locale.ROOT, "[%d/%d] ", ++index[0], selected.size()));
                    check.progress(line::show, ProgressLine.PERIOD_NANOS);
                }
                CheckResult r = check.run();
                if (line != null) {
                    line.clear();
                }
                return r;
            });
        }
        return out;
    }

    /** {@link #report}'s {@code fixedNanos}: the time line sums the results' own times. */
    static final long SUM_OF_RESULTS = -2;

    /**
     * Prints one line per result, in order, as soon as it and the ones before it are done (with
     * its violation or step-bound stop), then the summary and the time ({@code fixedNanos}, or
     * the wall time since {@code start} when it is -1, or {@link #SUM_OF_RESULTS}); returns the
     * exit code. The results are also added to {@code collected}.
     */
    static int report(PrintWriter out, List<java.util.function.Supplier<CheckResult>> running,
            List<CheckResult> collected, long start, long fixedNanos) {
        int passed = 0;
        int failed = 0;
        int bound = 0;
        int incomplete = 0;
        long executionsRun = 0;
        long nanos = 0;
        for (java.util.function.Supplier<CheckResult> f : running) {
            CheckResult r = f.get();
            collected.add(r);
            nanos += r.nanos();
            executionsRun += r.executions();
            out.println(r.summaryLine());
            switch (r.verdict()) {
                case PASS:
                    passed++;
                    break;
                case FAIL:
                    failed++;
                    printViolation(out, r);
                    break;
                case BOUND:
                    bound++;
                    out.println("  step bound: " + r.firstStepBound());
                    if (r.stepBoundToken() != null) {
                        out.println("  replay (the first execution stopped there): ./kmodel replay " + r.stepBoundToken());
                    }
                    break;
                default:
                    incomplete++;
                    break;
            }
            out.flush();
        }
        StringBuilder summary = new StringBuilder(String.format(Locale.ROOT, "%d scenario%s: %d passed, %d failed",
                collected.size(), collected.size() == 1 ? "" : "s", passed, failed));
        if (bound > 0) {
            summary.append(String.format(Locale.ROOT, ", %d stopped at the step bound", bound));
        }
        if (incomplete > 0) {
            summary.append(String.format(Locale.ROOT, ", %d incomplete", incomplete));
        }
        out.println(summary.append(String.format(Locale.ROOT, "; %d execution%s", executionsRun, executionsRun == 1 ? "" : "s")));
        double seconds = (fixedNanos >= 0 ? fixedNanos : fixedNanos == SUM_OF_RESULTS ? nanos : System.nanoTime() - start) / 1e9;
        out.println(String.format(Locale.ROOT, "time: %.2f s (%.0f executions/s)", seconds,
                seconds > 0 ? executionsRun / seconds : 0.0));
        out.flush();
        if (failed > 0) {
            return Kmodel.EXIT_VIOLATION;
        }
        return bound + incomplete > 0 ? Kmodel.EXIT_INCONCLUSIVE : 0;
    }

    /** The property that sets the virtual-thread carriers; kmodel leaves it to {@code --jobs}. */
    static final String CARRIERS = "jdk.virtualThreadScheduler.parallelism";

    /** {@code --shard I/N}. */
    static final class Shard {
        final int index;
        final int count;

        Shard(int index, int count) {
            this.index = index;
            this.count = count;
        }
    }

    /** Parses {@code --shard I/N}. */
    static final class ShardConverter implements CommandLine.ITypeConverter<Shard> {
        @Override
        public Shard convert(String value) {
            // as written (Values): I and N are decimal digits, no white space
            if (value.matches("[0-9]{1,9}/[0-9]{1,9}")) {
                int slash = value.indexOf('/');
                int i = Integer.parseInt(value.substring(0, slash));
                int n = Integer.parseInt(value.substring(slash + 1));
                if (n >= 1 && n <= CheckJson.MAX_UNITS && i >= 0 && i < n) {
                    return new Shard(i, n);
                }
            }
            throw new CommandLine.TypeConversionException("expected I/N with 0 <= I < N <= " + CheckJson.MAX_UNITS
                    + ", got '" + value + "'");
        }
    }

    @Option(names = "--jobs", paramLabel = "N",
            description = "Explore on N threads, each with its own runtime (default: the available cores). "
                    + "The results do not depend on N.")
    Integer jobs;

    @Option(names = "--shard", paramLabel = "I/N", converter = ShardConverter.class,
            description = "Explore only shard I of N of each exhaustive search (units u with u %% N == I) and "
                    + "write it to --json FILE; kmodel merge prints the report of the whole run.")
    Shard shard;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the results (per scenario: settings, verdict, counts, violation, token, "
                    + "time, and each unit's counts) to FILE as JSON.")
    java.nio.file.Path json;

    /**
     * The kind of check the options ask for: {@code auto} is the portfolio only with the default
     * {@code --preemptions auto}, the reduction on and no {@code --shard}; otherwise exhaustive.
     */
    ModelCheck.Kind kind() {
        if (strategy == StrategyName.AUTO && (preemptions != ModelCheck.AUTO || reduction == Reduction.NONE
                || shard != null)) {
            return ModelCheck.Kind.EXHAUSTIVE;
        }
        return strategy.kind;
    }

    /** The strategy's name as the JSON records it: auto that resolves to exhaustive ({@link #kind}) is exhaustive. */
    String strategyName() {
        return strategy == StrategyName.AUTO && kind() == ModelCheck.Kind.EXHAUSTIVE ? "exhaustive" : strategy.toString();
    }

    /** A check of {@code s} as the options ask. */
    ModelCheck newCheck(Scenario<?> s) {
        return configure(ModelCheck.of(s, kind()));
    }

    ModelCheck configure(ModelCheck check) {
        if (strategy == StrategyName.DELAY) {
            check.delayBound(delayBound != null ? delayBound : 2);
        }
        check.preemptions(preemptions).reduction(reduction != Reduction.NONE).sourceSets(reduction == Reduction.SOURCE)
                .seed(seed).steps(steps).verbose(verbose);
        if (executions != null) {
            check.executions(executions);
        }
        if (depth != null) {
            check.depth(depth);
        }
        return check;
    }

    private static void printViolation(PrintWriter out, CheckResult r) {
        out.println(r.violation().summary());
        out.print(r.diagram());
        if (!r.diagram().isEmpty() && !r.diagram().endsWith("\n")) {
            out.println();
        }
        if (r.oops() != null) {
            out.println("oops stack trace: " + r.oops());
            for (StackTraceElement e : r.oops().getStackTrace()) {
                out.println("    at " + e);
            }
        }
        out.println("replay: ./kmodel replay " + r.token());
    }

    /** Range checks picocli's type conversion does not do; options that the strategy ignores. */
    private void validate() {
        CommandLine cmd = spec.commandLine();
        if (executions != null && executions < 1) {
            throw new Kmodel.OneLine(cmd, "--executions must be 1 or more, got " + executions);
        }
        if (depth != null && (depth < 1 || depth > MAX_DEPTH)) {
            throw new Kmodel.OneLine(cmd, "--depth must be from 1 to " + MAX_DEPTH + ", got " + depth);
        }
        if (jobs != null && (jobs < 1 || jobs > 1024)) {
            throw new Kmodel.OneLine(cmd, "--jobs must be between 1 and 1024, got " + jobs);
        }
        if (json != null && java.nio.file.Files.isDirectory(json)) {
            // refused before the search runs, not after it (the generated CLI fuzzer found it)
            throw new Kmodel.OneLine(cmd, "--json " + json + ": is a directory, not a file");
        }
        if (json != null && json.toAbsolutePath().getParent() != null
                && !java.nio.file.Files.isDirectory(json.toAbsolutePath().getParent())) {
            throw new Kmodel.OneLine(cmd, "--json " + json + ": its directory does not exist");
        }
        if (shard != null && json == null) {
            throw new Kmodel.OneLine(cmd, "--shard needs --json FILE (the shard's results go there; see: kmodel merge)");
        }
        if (shard != null && strategy != StrategyName.EXHAUSTIVE && strategy != StrategyName.AUTO) {
            throw new Kmodel.OneLine(cmd, "--shard applies to --strategy exhaustive (or auto, whose exhaustive part it runs) only");
        }
        if (delayBound != null && (delayBound < 0 || delayBound > MAX_DELAY_BOUND)) {
            throw new Kmodel.OneLine(cmd, "--delay-bound must be from 0 to " + MAX_DELAY_BOUND + ", got " + delayBound);
        }
        if (delayBound != null && strategy != StrategyName.DELAY) {
            throw new Kmodel.OneLine(cmd, "--delay-bound applies to --strategy delay only");
        }
        if (shard != null && (timeBudget != null || progress == Boolean.TRUE)) {
            throw new Kmodel.OneLine(cmd, "--shard does not go with --time-budget or --progress (a shard's units are split runs)");
        }
        if (steps < 1) {
            throw new Kmodel.OneLine(cmd, "--steps must be 1 or more, got " + steps);
        }
        if (auditFootprints && ((strategy != StrategyName.AUTO && strategy != StrategyName.EXHAUSTIVE) || reduction == Reduction.NONE || shard != null
                || json != null || timeBudget != null || steps != ModelCheck.DEFAULT_STEPS)) {
            throw new Kmodel.OneLine(cmd, "--audit-footprints audits the reduced exhaustive search: not with "
                    + "--strategy delay/pct/random, --reduction none, --shard, --json, --time-budget or --steps");
        }
        if (depth != null && strategy != StrategyName.PCT) {
            throw new Kmodel.OneLine(cmd, "--depth applies to --strategy pct only");
        }
        if ((strategy == StrategyName.EXHAUSTIVE || strategy == StrategyName.DELAY)
                && spec.commandLine().getParseResult().hasMatchedOption("--seed")) {
            throw new Kmodel.OneLine(cmd, "--seed applies to --strategy auto, pct or random only");
        }
        if (strategy == StrategyName.AUTO && kind() != ModelCheck.Kind.AUTO
                && spec.commandLine().getParseResult().hasMatchedOption("--seed")) {
            throw new Kmodel.OneLine(cmd, "--seed applies to --strategy auto's portfolio (not with --preemptions N, "
                    + "--reduction none or --shard), pct or random only");
        }
        if (strategy != StrategyName.EXHAUSTIVE && strategy != StrategyName.AUTO
                && spec.commandLine().getParseResult().hasMatchedOption("--preemptions")) {
            throw new Kmodel.OneLine(cmd, "--preemptions applies to --strategy auto or exhaustive only");
        }
        if (strategy != StrategyName.EXHAUSTIVE && strategy != StrategyName.AUTO
                && spec.commandLine().getParseResult().hasMatchedOption("--reduction")) {
            throw new Kmodel.OneLine(cmd, "--reduction applies to --strategy auto or exhaustive only");
        }
    }
}
