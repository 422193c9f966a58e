package kmodel.explorer;

import com.google.common.base.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import kmodel.explorer.search.DfsStrategy;
import kmodel.explorer.search.DporStrategy;
import kmodel.explorer.search.ExplorationStrategy;
import kmodel.explorer.search.Minimiser;
import kmodel.explorer.search.NondeterminismException;
import kmodel.explorer.search.PctStrategy;
import kmodel.explorer.search.RandomStrategy;
import kmodel.explorer.search.ReplayMismatchException;
import kmodel.explorer.search.ReplayStrategy;
import kmodel.explorer.search.Schedule;
import kmodel.explorer.trace.Diagram;
import kmodel.explorer.trace.ReplayToken;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.TraceEvent;

/**
 * The JUnit-friendly entry point:
 * <pre>{@code
 * CheckResult r = ModelCheck.exhaustive(scenario).preemptions(2).run();
 * assertTrue(r.passed(), r.summaryLine());   // clean and complete
 * CheckResult bug = ModelCheck.exhaustive(scenario).config(cfg.withBug("x")).run();
 * assertEquals(ViolationKind.MISSED_WAKEUP, bug.kind());
 * }</pre>
 *
 * Exhaustive search iterates the preemption bound 0, 1, ..., N and stops at the first violation,
 * so a counterexample uses as few preemptions as possible. A violation's schedule is then
 * minimised ({@link Minimiser}: fewest preemptions, then context switches, then steps) and
 * replayed once with tracing on, which also checks that the scenario is deterministic; the
 * replay token is the minimised schedule.
 */
public final class ModelCheck {
    /** Which exploration. */
    public enum Kind {
        /** DFS with a preemption bound. */
        EXHAUSTIVE,
        /** PCT with depth d. */
        PCT,
        /** Seeded random. */
        RANDOM,
        /**
         * The portfolio of the command line's default ({@link Portfolio}): the unbounded reduced
         * search, then bounded DPOR, delay bounding and PCT sharing the execution budget.
         */
        AUTO
    }

    /** Default preemption bound. */
    public static final int DEFAULT_PREEMPTIONS = 2;
    /** {@link #preemptions(int)}: no bound; the search is complete for the scenario when it finishes. */
    public static final int UNBOUNDED = -1;
    /**
     * {@link #preemptions(int)}: the default of the command line. First the unbounded reduced
     * search with a budget of {@link #AUTO_UNBOUNDED_BUDGET} executions; a pass there is complete for
     * the scenario. If that budget does not suffice, the reduced search with preemption bound
     * {@link #AUTO_BOUND} (iterating 0, 1, ..., {@value #AUTO_BOUND}), or the scenario's own lower
     * bound ({@link CheckTarget#autoBound()}), within the execution budget.
     * The executions of both phases are counted; the end states of both are reported.
     */
    public static final int AUTO = -2;
    /** The unbounded phase's budget of {@link #AUTO}. */
    public static final long AUTO_UNBOUNDED_BUDGET = 20_000;
    /** The preemption bound {@link #AUTO} falls back to. */
    public static final int AUTO_BOUND = 3;
    /** Default step bound per execution. */
    public static final long DEFAULT_STEPS = 20_000;
    /**
     * Default execution budget of exhaustive search. 2,000,000 until 2026-12-01, when
     * {@code wait_on_page_writeback()}'s loop (c2407cf7d22d) and the reduction's acquire-race fix
     * took {@code page-wait-collisions} to 2,012,402 executions at preemption bound 3.
     */
    public static final long DEFAULT_EXHAUSTIVE_BUDGET = 4_000_000;
    /** Default executions of random and PCT. */
    public static final long DEFAULT_SAMPLED = 10_000;

    private final CheckTarget scenario;
    private final Kind kind;
    private int preemptions = DEFAULT_PREEMPTIONS;
    private long seed = 1;
    private long executions = -1;
    private int depth = 3;
    private long steps = DEFAULT_STEPS;
    private Kconfig config = Kconfig.defaults();
    private boolean iterative = true;
    private boolean verbose;
    private boolean reduction = true;
    /** The unbounded reduced search without wakeup trees (source-DPOR with sleep sets). */
    private boolean sourceSets;
    private boolean blindReduction;
    private int minimiseBudget = Minimiser.DEFAULT_BUDGET;
    private boolean allViolations;
    private boolean naiveBound;
    private int delayBound = -1;
    private CheckPool pool;
    private int jobs;
    /** Units per level of a split search; 0: {@link SplitExplorer#defaultUnitTarget}. */
    private int unitTarget;
    private Ticker ticker = Ticker.systemTicker();
    private long timeBudgetNanos = -1;
    private Consumer<Progress> progress;
    private long progressPeriodNanos;

    private ModelCheck(CheckTarget scenario, Kind kind) {
        this.scenario = scenario;
        this.kind = kind;
    }

    /** Exhaustive search with a preemption bound. */
    public static ModelCheck exhaustive(CheckTarget scenario) {
        return new ModelCheck(scenario, Kind.EXHAUSTIVE);
    }

    /** PCT with depth d. */
    public static ModelCheck pct(CheckTarget scenario) {
        return new ModelCheck(scenario, Kind.PCT);
    }

    /** Seeded random schedules. */
    public static ModelCheck random(CheckTarget scenario) {
        return new ModelCheck(scenario, Kind.RANDOM);
    }

    /** A check of {@code kind}. */
    public static ModelCheck of(CheckTarget scenario, Kind kind) {
        return new ModelCheck(scenario, kind);
    }

    /** The portfolio default ({@link Portfolio}, {@link Kind#AUTO}). */
    public static ModelCheck portfolio(CheckTarget scenario) {
        return new ModelCheck(scenario, Kind.AUTO);
    }

    /**
     * Preemption bound of exhaustive search (default 2), or {@link #UNBOUNDED}: every
     * interleaving, with partial-order reduction unless {@link #reduction(boolean)} turned it off.
     */
    public ModelCheck preemptions(int n) {
        this.preemptions = n;
        return this;
    }

    /**
     * Partial-order reduction of exhaustive search (default on): optimal DPOR (wakeup trees) when
     * unbounded, bounded POR with a preemption bound ({@link DporStrategy}). Off: plain DFS.
     */
    public ModelCheck reduction(boolean on) {
        this.reduction = on;
        return this;
    }

    /**
     * The reduced search as it was before 2026-12-02: the unbounded one before wakeup trees
     * (source-DPOR with sleep sets, {@link DporStrategy#sourceSets()}; complete as well, but with
     * executions that end sleep-set blocked), and the bounded one without sleep sets under a bound
     * of 1 or more ({@link DporStrategy#withoutBoundedSleepSets}). For comparisons
     * ({@code --reduction source}, {@code ./kmodel bench --before-after}).
     */
    public ModelCheck sourceSets(boolean on) {
        this.sourceSets = on;
        return this;
    }

    /**
     * Exhaustive search with a delay bound instead of a preemption bound (Emmi, Qadeer and
     * Rakamaric, POPL 2011; {@link DfsStrategy#delayBounded}), iterated
     * 0, 1, ..., d; plain, without reduction. For comparing orders of exploration.
     */
    public ModelCheck delayBound(int d) {
        if (d < 0) {
            throw new IllegalArgumentException("negative delay bound " + d);
        }
        this.delayBound = d;
        return this;
    }

    /** DPOR naively combined with the preemption bound (no conservative points), for tests that must see it fail. */
    public ModelCheck naiveBoundForTesting() {
        this.naiveBound = true;
        return this;
    }

    /** A deliberately unsound reduction (every step independent), for tests that must see it fail. */
    public ModelCheck blindReductionForTesting() {
        this.blindReduction = true;
        return this;
    }

    /**
     * Replays spent minimising a counterexample before it is printed (default
     * {@link Minimiser#DEFAULT_BUDGET}; 0: print the schedule as found).
     */
    public ModelCheck minimise(int budget) {
        this.minimiseBudget = budget;
        return this;
    }

    /**
     * Exhaustive search goes on after a violation (default: it stops at the first), and every
     * violating execution adds {@code !kind} (e.g. {@code !missed-wakeup}) to the outcomes, so two
     * searches can be compared on every end state and every violation kind they reach. The
     * result still reports the first violation and its counterexample.
     */
    public ModelCheck allViolations(boolean on) {
        this.allViolations = on;
        return this;
    }

    /** Whether to iterate the bound 0..N (default) or search at N directly. */
    public ModelCheck iterative(boolean on) {
        this.iterative = on;
        return this;
    }

    /** Seed of random and PCT. */
    public ModelCheck seed(long s) {
        this.seed = s;
        return this;
    }

    /** Executions of random/PCT, or the budget of exhaustive search. */
    public ModelCheck executions(long n) {
        this.executions = n;
        return this;
    }

    /** PCT depth. */
    public ModelCheck depth(int d) {
        this.depth = d;
        return this;
    }

    /** Step bound per execution. */
    public ModelCheck steps(long n) {
        this.steps = n;
        return this;
    }

    /**
     * The configuration (default: every seed patch applied, no bug), laid over the scenario's own
     * settings. The result and the replay token carry the effective configuration.
     */
    public ModelCheck config(Kconfig c) {
        this.config = c;
        return this;
    }

    /** Record every scheduling point in the counterexample, not only model-level events. */
    public ModelCheck verbose(boolean on) {
        this.verbose = on;
        return this;
    }

    /**
     * Runs on the jobs of {@code p} ({@code --jobs N}): an exhaustive search is split into units
     * ({@link SplitExplorer}) explored side by side, with the result of one sequential run over
     * the same units (for plain DFS, the unsplit run's, execution for execution); PCT and random,
     * delay-bounded search, {@link #allViolations} and the test-only broken searches run whole on
     * one job. Several checks may share one pool.
     */
    public ModelCheck pool(CheckPool p) {
        this.pool = p;
        return this;
    }

    /** {@link #pool} on a pool of {@code n} jobs of this check's own. */
    public ModelCheck jobs(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("jobs must be 1 or more, got " + n);
        }
        this.jobs = n;
        return this;
    }

    /** Units per level of a split search at least, where the tree has that many (default {@link SplitExplorer#defaultUnitTarget}). */
    public ModelCheck unitTarget(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("unit target must be 1 or more, got " + n);
        }
        this.unitTarget = n;
        return this;
    }

    /**
     * Stops the search when {@code budget} has passed (by the {@link #ticker(Ticker) ticker}),
     * cleanly, between two executions: the result is {@code INCOMPLETE} (not complete) and says
     * what was covered ({@link CheckResult#timeBudgetNote()}). A zero budget runs no execution.
     */
    public ModelCheck timeBudget(Duration budget) {
        if (budget.isNegative()) {
            throw new IllegalArgumentException("time budget must not be negative, got " + budget);
        }
        this.timeBudgetNanos = budget.toNanos();
        return this;
    }

    /**
     * The clock of the time budget and the progress reports (default: the system ticker). Tests
     * inject a fake one: wall-clock time is never asserted.
     */
    public ModelCheck ticker(Ticker t) {
        this.ticker = t;
        return this;
    }

    /**
     * Calls {@code listener} (on the checking thread, between executions) with a snapshot of the
     * search at most once per {@code periodNanos}; for a progress line. The ticker is read only
     * every few hundred to few thousand executions, so the explorer does not slow down.
     */
    public ModelCheck progress(Consumer<Progress> listener, long periodNanos) {
        this.progress = listener;
        this.progressPeriodNanos = periodNanos;
        return this;
    }

    /** Runs the check on a runtime thread (a virtual thread on JDK 21+), or on the jobs of {@link #pool}. */
    public CheckResult run() {
        if (kind == Kind.AUTO) {
            return new Portfolio(this).run();
        }
        if (pool == null && jobs == 0) {
            return DeterministicRuntime.callOnRuntimeThread(this::explore);
        }
        if (pool != null) {
            return runOn(pool);
        }
        try (CheckPool own = new CheckPool(jobs)) {
            return runOn(own);
        }
    }

    /**
     * Whether this check's search can be split into units: exhaustive, by preemption bound or
     * unbounded, stopping at the first violation, with no time budget or progress reports (those
     * run unsplit, on one job).
     */
    boolean splittable() {
        return kind == Kind.EXHAUSTIVE && !blindReduction && !naiveBound && !allViolations && delayBound < 0
                && timeBudgetNanos < 0 && progress == null;
    }

    private CheckResult runOn(CheckPool p) {
        if (splittable()) {
            return splitExplorer().run(p);
        }
        return CheckPool.join(p.submit(this::exploreOn));
    }

    // ---------------------------------------------------------------- for Portfolio

    /** A copy of this check's settings as a check of {@code k} (a part of the portfolio). */
    ModelCheck part(Kind k) {
        ModelCheck c = new ModelCheck(scenario, k);
        c.preemptions = preemptions;
        c.seed = seed;
        c.executions = executions;
        c.depth = depth;
        c.steps = steps;
        c.config = config;
        c.verbose = verbose;
        c.reduction = reduction;
        c.sourceSets = sourceSets;
        c.minimiseBudget = minimiseBudget;
        c.pool = pool;
        c.jobs = jobs;
        c.unitTarget = unitTarget;
        c.ticker = ticker;
        return c;
    }

    CheckTarget scenario() {
        return scenario;
    }

    /** The effective configuration: the scenario's settings with this check's laid over them. */
    Kconfig effectiveConfig() {
        return scenario.settings().overlay(this.config);
    }

    long budgetOr(long dflt) {
        return executions > 0 ? executions : dflt;
    }

    long seed() {
        return seed;
    }

    long steps() {
        return steps;
    }

    boolean verbose() {
        return verbose;
    }

    int minimiseBudget() {
        return minimiseBudget;
    }

    boolean sourceSetsSetting() {
        return sourceSets;
    }

    int preemptionsSetting() {
        return preemptions;
    }

    CheckPool poolOrNull() {
        return pool;
    }

    int jobsSetting() {
        return jobs;
    }

    Ticker ticker() {
        return ticker;
    }

    long timeBudgetNanos() {
        return timeBudgetNanos;
    }

    Consumer<Progress> progressListener() {
        return progress;
    }

    long progressPeriodNanos() {
        return progressPeriodNanos;
    }

    private SplitExplorer splitExplorer() {
        long budget = executions > 0 ? executions : DEFAULT_EXHAUSTIVE_BUDGET;
        SplitExplorer e = new SplitExplorer(scenario, scenario.settings().overlay(this.config), preemptions, reduction,
                preemptions == UNBOUNDED || iterative, steps, budget,
                unitTarget > 0 ? unitTarget : SplitExplorer.defaultUnitTarget(reduction), verbose, minimiseBudget);
        e.settings().sourceSets = sourceSets;
        return e;
    }

    /**
     * Shard {@code index} of {@code count} of the split exhaustive search ({@code --shard I/N}),
     * on the jobs of {@link #pool} (or of {@link #jobs}): units {@code u % count == index} of
     * each level. {@link SplitExplorer#merge} turns the shards into this check's result.
     */
    public SplitRun runShard(int index, int count) {
        if (!splittable()) {
            throw new IllegalArgumentException("only exhaustive search by preemption bound is split into shards");
        }
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + "/" + count + ": need 0 <= I < N");
        }
        if (pool != null) {
            return splitExplorer().runShard(pool, index, count);
        }
        try (CheckPool own = new CheckPool(Math.max(1, jobs))) {
            return splitExplorer().runShard(own, index, count);
        }
    }

    private CheckResult explore() {
        try (DeterministicRuntime rt = new DeterministicRuntime()) {
            return exploreOn(rt);
        }
    }

    private CheckResult exploreOn(DeterministicRuntime rt) {
        long start = System.nanoTime();
        final Kconfig config = scenario.settings().overlay(this.config);
        Program program = scenario.program();
        TreeSet<String> outcomes = new TreeSet<>();
        long count = 0;
        long boundHits = 0;
        long sleepBlocked = 0;
        String firstBound = null;
        Schedule boundSchedule = null;
        Schedule failing = null;
        Violation violation = null;
        boolean budgetCut = false;
        boolean timeCut = false;
        String timeNote = null;
        Pacer pacer = new Pacer(ticker, timeBudgetNanos, progress, progressPeriodNanos, scenario.name());
        boolean paced = pacer.active();
        String describe;
        {
            long budget = executions > 0 ? executions
                    : kind == Kind.EXHAUSTIVE ? DEFAULT_EXHAUSTIVE_BUDGET : DEFAULT_SAMPLED;
            describe = null;
            String unfinished = null;
            String lastFinished = null; // the last search (phase) that ran to its end, for the time-budget note
            search:
            for (Phase phase : phases()) {
                ExplorationStrategy s = phase.strategy(budget);
                describe = s.describe();
                long phaseBudget = phase.budget >= 0 ? Math.min(count + phase.budget, budget) : budget;
                do {
                    if (kind == Kind.EXHAUSTIVE && count >= phaseBudget) {
                        // An execution is left to explore and the budget is spent: not exhaustive.
                        if (phase.budget >= 0 && count < budget) {
                            unfinished = "unbounded search not finished in " + String.format(java.util.Locale.ROOT, "%,d", phase.budget)
                                    + " executions";
                            continue search;
                        }
                        budgetCut = true;
                        break search;
                    }
                    if (paced && pacer.timeUp(s, count, kind == Kind.EXHAUSTIVE ? -1 : budget)) {
                        timeCut = true;
                        timeNote = timeBudgetNote(s, lastFinished, count, budget);
                        break search;
                    }
                    ExecutionResult r = rt.execute(program, s, config, steps, false, false);
                    count++;
                    rethrowHarnessErrors(r);
                    if ((r.violation() != null || r.stepBound() != null) && s instanceof DporStrategy) {
                        ((DporStrategy) s).executionCut();
                    }
                    if (r.violation() != null) {
                        if (violation == null) {
                            violation = r.violation();
                            failing = s.schedule().copy();
                        }
                        if (!allViolations) {
                            break search;
                        }
                        outcomes.add("!" + r.violation().kind().label());
                        continue;
                    }
                    if (r.pruned()) {
                        sleepBlocked++;
                        continue; // redundant: no end state, not an outcome
                    }
                    if (r.stepBound() != null) {
                        boundHits++;
                        if (firstBound == null) {
                            firstBound = r.stepBound();
                            boundSchedule = s.schedule().copy();
                        }
                    } else {
                        outcomes.add(r.outcome());
                    }
                } while (s.advance());
                lastFinished = describe;
                if (phase.budget >= 0) {
                    break; // the unbounded phase of AUTO finished: complete, no need for the bounded one
                }
            }
            if ((budgetCut || timeCut || violation != null && !allViolations) && describe.contains("complete")) {
                // cut by the budget or the time budget, or stopped at a violation: unbounded, not complete
                describe = describe.replace("complete", "unbounded");
            }
            if (unfinished != null) {
                describe = describe + "; " + unfinished;
            }
            List<TraceEvent> trace = List.of();
            String diagram = "";
            String token = null;
            Throwable oops = null;
            if (violation != null) {
                if (minimiseBudget > 0) {
                    failing = Minimiser.minimise(rt, program, config, steps, failing, violation.kind(), minimiseBudget)
                            .schedule();
                }
                ExecutionResult replay = rt.execute(program, new ReplayStrategy(failing), config, steps, true, verbose);
                rethrowHarnessErrors(replay);
                if (replay.violation() == null || replay.violation().kind() != violation.kind()) {
                    throw new NondeterminismException(failing.size(), "replaying the failing schedule gave "
                            + (replay.violation() == null ? "no violation" : replay.violation().summary()));
                }
                violation = replay.violation(); // the minimised run's, as its diagram shows
                trace = replay.trace();
                diagram = Diagram.render(verbose ? trace : Diagram.info(trace));
                token = new ReplayToken(scenario.name(), config.canonical(), failing).encode();
                oops = replay.oops();
            }
            // Complete: not cut by the budget, not stopped at a violation. Random and PCT stop only
            // when their strategy has run every execution asked for, or at a violation.
            boolean complete = !budgetCut && !timeCut && violation == null;
            return new CheckResult(scenario.name(), config, describe, count, outcomes, System.nanoTime() - start,
                    complete, violation, trace, diagram, token, boundHits, firstBound, oops, budgetCut)
                    .timeBudgetReached(timeNote)
                    .stepBoundToken(stepBoundToken(scenario, config, steps, boundSchedule))
                    .sleepBlocked(sleepBlocked);
        }
    }

    /**
     * The replay token of a step-bound stop's {@code schedule} (null if none), for
     * {@link CheckResult#stepBoundToken()}: only under the default step bound, the one replay runs
     * with, since under another the schedule would not fit.
     */
    static String stepBoundToken(CheckTarget scenario, Kconfig config, long steps, Schedule schedule) {
        if (schedule == null || steps != DEFAULT_STEPS) {
            return null;
        }
        return new ReplayToken(scenario.name(), config.canonical(), schedule).encode();
    }

    /** One search of a check: a strategy, and its own execution budget ({@code -1}: the check's). */
    private static final class Phase {
        final java.util.function.LongFunction<ExplorationStrategy> factory;
        final long budget;

        Phase(java.util.function.LongFunction<ExplorationStrategy> factory, long budget) {
            this.factory = factory;
            this.budget = budget;
        }

        ExplorationStrategy strategy(long checkBudget) {
            return factory.apply(checkBudget);
        }
    }

    /** The searches this check runs in turn, stopping at the first violation. */
    private List<Phase> phases() {
        List<Phase> phases = new java.util.ArrayList<>();
        if (kind == Kind.PCT) {
            phases.add(new Phase(b -> new PctStrategy(seed, depth, b), -1));
        } else if (kind == Kind.RANDOM) {
            phases.add(new Phase(b -> new RandomStrategy(seed, b), -1));
        } else if (delayBound >= 0) {
            for (int d = iterative ? 0 : delayBound; d <= delayBound; d++) {
                final int b = d;
                phases.add(new Phase(x -> DfsStrategy.delayBounded(b), -1));
            }
            return phases;
        } else if (preemptions == UNBOUNDED || preemptions == AUTO) {
            phases.add(new Phase(b -> blindReduction ? DporStrategy.blindForTesting()
                    : reduction ? (sourceSets ? DporStrategy.sourceSets() : new DporStrategy())
                    : new DfsStrategy(Integer.MAX_VALUE),
                    preemptions == AUTO ? AUTO_UNBOUNDED_BUDGET : -1));
        }
        if (kind == Kind.EXHAUSTIVE && preemptions != UNBOUNDED) {
            int to = preemptions == AUTO ? scenario.autoBound() : preemptions;
            for (int bound = iterative ? 0 : to; bound <= to; bound++) {
                final int b = bound;
                phases.add(new Phase(x -> naiveBound ? DporStrategy.naiveBoundForTesting(b)
                        : reduction ? (sourceSets ? DporStrategy.withoutBoundedSleepSets(b) : new DporStrategy(b))
                        : new DfsStrategy(b), -1));
            }
        }
        return phases;
    }

    private static final Pattern BOUND = Pattern.compile("preemption bound (\\d+)");

    /**
     * What a search cut by the time budget covered: the preemption bound last finished and the
     * estimated share of the search under way, or the share of the executions asked for.
     */
    private String timeBudgetNote(ExplorationStrategy s, String lastFinished, long count, long budget) {
        if (kind != Kind.EXHAUSTIVE) {
            return String.format(Locale.ROOT, "time budget reached after %,d of %,d executions", count, budget);
        }
        double share = Pacer.explored(s, count, -1);
        String about = Double.isNaN(share) || count == 0 ? ""
                : String.format(Locale.ROOT, "about %.0f%% explored", Math.floor(100 * share));
        StringBuilder sb = new StringBuilder("time budget reached, not exhaustive");
        Matcher done = lastFinished == null ? null : BOUND.matcher(lastFinished);
        Matcher now = BOUND.matcher(s.describe());
        if (done != null && done.find() && now.find()) {
            sb.append("; complete to preemption bound ").append(done.group(1));
            if (!about.isEmpty()) {
                sb.append(", bound ").append(now.group(1)).append(' ').append(about);
            }
        } else if (!about.isEmpty()) {
            sb.append("; ").append(about);
        }
        return sb.toString();
    }

    private static void rethrowHarnessErrors(ExecutionResult r) {
        if (r.oops() instanceof ReplayMismatchException) {
            throw (ReplayMismatchException) r.oops();
        }
        if (r.oops() instanceof NondeterminismException) {
            throw (NondeterminismException) r.oops();
        }
    }

    /** What a replay printed. */
    public static final class Replay {
        private final ReplayToken token;
        private final Violation violation;
        private final String diagram;
        private final List<TraceEvent> trace;
        private final String stepBound;

        Replay(ReplayToken token, Violation violation, String diagram, List<TraceEvent> trace, String stepBound) {
            this.token = token;
            this.violation = violation;
            this.diagram = diagram;
            this.trace = trace;
            this.stepBound = stepBound;
        }

        public ReplayToken token() {
            return token;
        }

        public Violation violation() {
            return violation;
        }

        public String diagram() {
            return diagram;
        }

        public List<TraceEvent> trace() {
            return trace;
        }

        /** Non-null when the replayed run hit the step bound. */
        public String stepBound() {
            return stepBound;
        }
    }

    /**
     * Re-runs the schedule of {@code token} with tracing. Throws
     * {@link ReplayToken.MalformedTokenException} or {@link IllegalArgumentException} (unknown
     * scenario or option) with a one-line message, or {@link ReplayMismatchException} when the
     * schedule does not fit the scenario.
     */
    public static Replay replay(String tokenText, Targets registry, boolean verbose) {
        return replay(ReplayToken.decode(tokenText), registry, verbose);
    }

    /** {@link #replay(String, Targets, boolean)} of a token already decoded. */
    public static Replay replay(ReplayToken token, Targets registry, boolean verbose) {
        CheckTarget scenario = registry.find(token.scenario());
        if (scenario == null) {
            throw new IllegalArgumentException("replay token names unknown scenario '" + token.scenario() + "'");
        }
        Kconfig config = registry.parseConfig(token.config());
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                ExecutionResult r = rt.execute(scenario.program(), new ReplayStrategy(token.schedule()), config,
                        DEFAULT_STEPS, true, verbose);
                rethrowHarnessErrors(r);
                String diagram = Diagram.render(verbose ? r.trace() : Diagram.info(r.trace()));
                return new Replay(token, r.violation(), diagram, r.trace(), r.stepBound());
            }
        });
    }
}
