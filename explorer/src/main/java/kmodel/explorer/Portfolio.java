package kmodel.explorer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.TraceEvent;
import kmodel.explorer.search.DfsStrategy;
import kmodel.explorer.search.ExplorationStrategy;
import kmodel.explorer.search.Minimiser;
import kmodel.explorer.search.NondeterminismException;
import kmodel.explorer.search.PctStrategy;
import kmodel.explorer.search.ReplayMismatchException;
import kmodel.explorer.search.ReplayStrategy;
import kmodel.explorer.search.Schedule;
import kmodel.explorer.trace.Diagram;
import kmodel.explorer.trace.ReplayToken;

/**
 * The command line's default check ({@link ModelCheck.Kind#AUTO}, {@code --strategy auto}): a
 * portfolio of searches within one execution budget.
 *
 * <ol>
 *   <li>The unbounded reduced search (optimal DPOR with wakeup trees) with
 *       {@link ModelCheck#AUTO_UNBOUNDED_BUDGET} executions, exactly as {@link ModelCheck#AUTO}
 *       begins. If it finishes, or finds a violation, that is the result: {@code complete}, or the
 *       counterexample (nothing else runs).</li>
 *   <li>Otherwise three searches share what is left of the budget, <em>interleaved round robin</em>,
 *       one execution each in turn, in this order: <b>X</b>, the bounded reduced search iterated
 *       over preemption bounds 0..{@link CheckTarget#autoBound()} (exactly the bounded phase of
 *       {@link ModelCheck#AUTO}); <b>D</b>, delay bounding ({@link DfsStrategy#delayBounded})
 *       iterated over delay bounds 0..{@value #DELAY_BOUND}, at most {@value #DELAY_EXECUTIONS}
 *       executions; <b>P</b>, PCT with depth {@value #PCT_DEPTH} and the check's seed, at most
 *       {@value #PCT_EXECUTIONS} executions. A search that has ended drops out of the rotation; the
 *       portfolio ends when all three have, or the budget is spent. The first violation in that
 *       interleaved order wins, is minimised and replayed as any other.</li>
 * </ol>
 *
 * <h2>What is proved and what is sampled</h2>
 * Only X (and the unbounded phase) prove anything: a pass is "every execution within preemption
 * bound b" (or {@code complete}), exactly as {@link ModelCheck#AUTO} says. D and P only sample: their
 * executions are counted and their end states and step-bound stops reported, but the line names them
 * as sampled, never as a bound. The budget left to X is the budget minus the samplers' executions
 * (at most {@value #DELAY_EXECUTIONS} + {@value #PCT_EXECUTIONS}), so X reaches the bound
 * {@link ModelCheck#AUTO} reaches wherever that needed less than {@code budget - 20,000 - 10,000}.
 *
 * <h2>How the interleaving is computed</h2>
 * The order is fixed (round robin, X first in each round), so the interleaved run is a function of
 * the three searches' own sequences of executions, each deterministic. The samplers run first, each
 * to its end or its first violation (on two jobs of the pool when there is one, "on {@code --jobs}");
 * their counts then fix how many executions X gets before the budget or before the samplers' first
 * violation; X runs with that budget (split into units on the pool as {@link ModelCheck#AUTO}'s
 * bounded phase is); and a walk over the rounds with the three searches' actual counts gives the
 * executions the interleaved run would have counted, and the first violation. So the result is the
 * interleaved run's, the same for every {@code --jobs}, without interleaving on one runtime. Sampler
 * executions beyond the point where the interleaved run stops are discarded (not counted, not
 * reported).
 */
public final class Portfolio {
    /** The delay bounds D iterates, 0 to this. */
    public static final int DELAY_BOUND = 3;
    /** D's share of the budget at most. */
    public static final long DELAY_EXECUTIONS = 5_000;
    /** P's depth. */
    public static final int PCT_DEPTH = 3;
    /** P's share of the budget at most. */
    public static final long PCT_EXECUTIONS = 5_000;

    private final ModelCheck check;
    private final CheckTarget scenario;
    private final Kconfig config;

    Portfolio(ModelCheck check) {
        this.check = check;
        this.scenario = check.scenario();
        this.config = check.effectiveConfig();
    }

    /** What one sampler did: per execution, its end state or step-bound stop, and its first violation. */
    static final class Sample {
        final String name;
        /** Executions run (the violating one included). */
        long n;
        /** Index of the violating execution, or -1. */
        long violationAt = -1;
        /** Per execution: its outcome, or null (pruned, or stopped at the step bound). */
        final List<String> outcomes = new ArrayList<>();
        /** Per execution: whether it stopped at the step bound. */
        final List<Boolean> stepBound = new ArrayList<>();
        String firstStepBound;
        long firstStepBoundAt = -1;
        Schedule stepBoundSchedule;
        /** The minimised counterexample, or null. */
        Violation violation;
        List<TraceEvent> trace = List.of();
        String diagram = "";
        String token;
        Throwable oops;
        /** D: the largest delay bound finished (-1: none); the bound under way when it stopped. */
        int finishedBound = -1;
        int bound;
        /** D: the executions run when each delay bound finished, by bound. */
        final List<Long> boundEnds = new ArrayList<>();
        /** Stopped by the time budget. */
        boolean timeCut;
        String describe;

        Sample(String name) {
            this.name = name;
        }
    }

    CheckResult run() {
        long start = System.nanoTime();
        long budget = check.budgetOr(ModelCheck.DEFAULT_EXHAUSTIVE_BUDGET);
        long timeStart = check.ticker().read();
        // 1. The unbounded phase, alone.
        // ModelCheck.AUTO with the unbounded phase's budget as its whole budget: its unbounded phase
        // alone, and a result (and --json record) that is AUTO's where that phase decides
        ModelCheck unbounded = check.part(ModelCheck.Kind.EXHAUSTIVE).preemptions(ModelCheck.AUTO)
                .executions(Math.min(ModelCheck.AUTO_UNBOUNDED_BUDGET, budget));
        paced(unbounded, timeStart);
        CheckResult first = unbounded.run();
        if (first.violation() != null || first.complete() || first.timeBudgetReached()
                || first.executions() >= budget) {
            return first;
        }
        long left = budget - first.executions();
        boolean timed = check.timeBudgetNanos() >= 0;

        // 2. The samplers, each to its end or first violation.
        Sample d;
        Sample p;
        CheckPool pool = check.poolOrNull();
        if (pool == null && check.jobsSetting() > 0) {
            try (CheckPool own = new CheckPool(check.jobsSetting())) {
                CompletableFuture<Sample> fd = own.submit(rt -> delay(rt, timeStart));
                CompletableFuture<Sample> fp = own.submit(rt -> pct(rt, timeStart));
                d = CheckPool.join(fd);
                p = CheckPool.join(fp);
            }
        } else if (pool != null) {
            CompletableFuture<Sample> fd = pool.submit(rt -> delay(rt, timeStart));
            CompletableFuture<Sample> fp = pool.submit(rt -> pct(rt, timeStart));
            d = CheckPool.join(fd);
            p = CheckPool.join(fp);
        } else {
            d = DeterministicRuntime.callOnRuntimeThread(() -> {
                try (DeterministicRuntime rt = new DeterministicRuntime()) {
                    return delay(rt, timeStart);
                }
            });
            p = DeterministicRuntime.callOnRuntimeThread(() -> {
                try (DeterministicRuntime rt = new DeterministicRuntime()) {
                    return pct(rt, timeStart);
                }
            });
        }

        // 3. X's share: the rounds before the budget is spent or a sampler's violation, X never ending.
        Walk plan = walk(Long.MAX_VALUE, -1, d, p, left);
        CheckResult x = null;
        if (plan.x > 0 && !(timed && (d.timeCut || p.timeCut))) {
            ModelCheck bounded = check.part(ModelCheck.Kind.EXHAUSTIVE).preemptions(scenario.autoBound()).iterative(true)
                    .reduction(true).executions(plan.x);
            paced(bounded, timeStart);
            x = bounded.run();
        }
        long nx = x == null ? 0 : x.executions();
        long vx = x != null && x.violation() != null ? nx - 1 : -1;
        Walk w = walk(nx, vx, d, p, left);

        // 4. The result of the interleaved run.
        TreeSet<String> outcomes = new TreeSet<>(first.outcomes());
        long boundHits = first.stepBoundHits();
        String firstBound = first.firstStepBound();
        String boundToken = first.stepBoundToken();
        if (x != null) {
            outcomes.addAll(x.outcomes());
            boundHits += x.stepBoundHits();
            if (firstBound == null) {
                firstBound = x.firstStepBound();
                boundToken = x.stepBoundToken();
            }
        }
        for (Object[] sc : new Object[][] {{d, w.d}, {p, w.p}}) {
            Sample s = (Sample) sc[0];
            long counted = (Long) sc[1];
            for (int i = 0; i < counted; i++) {
                if (i == s.violationAt) {
                    continue;
                }
                if (s.stepBound.get(i)) {
                    boundHits++;
                } else if (s.outcomes.get(i) != null) {
                    outcomes.add(s.outcomes.get(i));
                }
            }
            if (firstBound == null && s.firstStepBoundAt >= 0 && s.firstStepBoundAt < counted) {
                firstBound = s.firstStepBound;
                boundToken = ModelCheck.stepBoundToken(scenario, config, check.steps(), s.stepBoundSchedule);
            }
        }
        long total = first.executions() + w.x + w.d + w.p;
        Violation violation = null;
        List<TraceEvent> trace = List.of();
        String diagram = "";
        String token = null;
        Throwable oops = null;
        String foundBy = null;
        if (w.winner == 'X') {
            violation = x.violation();
            trace = x.trace();
            diagram = x.diagram();
            token = x.token();
            oops = x.oops();
            foundBy = "bounded DPOR";
        } else if (w.winner == 'D' || w.winner == 'P') {
            Sample s = w.winner == 'D' ? d : p;
            violation = s.violation;
            trace = s.trace;
            diagram = s.diagram;
            token = s.token;
            oops = s.oops;
            foundBy = s.name;
        }
        boolean timeCut = x != null && x.timeBudgetReached() || timed && (d.timeCut || p.timeCut);
        boolean budgetCut = violation == null && !timeCut && (x == null || x.budgetReached());
        boolean complete = violation == null && !timeCut && x != null && x.complete();
        String describe = describe(x, d, p, w, foundBy);
        String timeNote = null;
        if (timeCut) {
            timeNote = x != null && x.timeBudgetNote() != null ? x.timeBudgetNote()
                    : "time budget reached while sampling, not exhaustive";
        }
        CheckResult r = new CheckResult(scenario.name(), config, describe, total, outcomes, System.nanoTime() - start,
                complete, violation, trace, diagram, token, boundHits, firstBound, oops, budgetCut && !complete)
                .timeBudgetReached(timeNote)
                .stepBoundToken(boundToken)
                .sleepBlocked(first.sleepBlocked() + (x == null ? 0 : x.sleepBlocked()));
        if (x != null && x.split() != null) {
            r.split(x.split());
        }
        return r;
    }

    /**
     * Whether {@code r}, a result of the portfolio, was decided by the unbounded phase alone (it is
     * then {@code ModelCheck.AUTO}'s result, and its {@code --json} record merges as an exhaustive
     * search's); false when the samplers ran.
     */
    public static boolean decidedByTheUnboundedPhase(CheckResult r) {
        return !r.strategy().contains("sampled");
    }

    /** Gives a part the time left of the check's time budget, and its progress listener. */
    private void paced(ModelCheck part, long timeStart) {
        if (check.timeBudgetNanos() >= 0) {
            long used = check.ticker().read() - timeStart;
            part.timeBudget(Duration.ofNanos(Math.max(0, check.timeBudgetNanos() - used)));
        }
        if (check.progressListener() != null) {
            part.progress(check.progressListener(), check.progressPeriodNanos());
        }
    }

    /**
     * Without a violation: the proved part first, exactly as {@link ModelCheck#AUTO} prints it, then
     * what was only sampled. With one: the searches and their executions, and which one found it.
     */
    private String describe(CheckResult x, Sample d, Sample p, Walk w, String foundBy) {
        String unfinished = String.format(Locale.ROOT, "unbounded search not finished in %,d executions",
                ModelCheck.AUTO_UNBOUNDED_BUDGET);
        StringBuilder sb = new StringBuilder();
        if (foundBy == null) {
            sb.append(x == null ? "exhaustive, unbounded (" + (check.sourceSetsSetting() ? "source-DPOR with sleep sets"
                    : "optimal DPOR with wakeup trees") + ")" : x.strategy());
            sb.append("; ").append(unfinished).append("; sampled, no violation (no proof): ");
        } else {
            sb.append("portfolio: ").append(unfinished).append(", then round robin: ");
            sb.append(String.format(Locale.ROOT, "bounded DPOR %,d executions", w.x));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("preemption bound (\\d+)")
                    .matcher(x == null ? "" : x.strategy());
            if (w.x > 0 && m.find()) {
                sb.append(" (reached preemption bound ").append(m.group(1)).append(')');
            }
            sb.append(", ");
        }
        sb.append(String.format(Locale.ROOT, "delay bounding %,d executions", w.d));
        if (w.d > 0) {
            int finished = finishedBoundAt(d, w.d);
            sb.append(finished >= 0 ? " (delay bound " + finished + " finished)" : " (delay bound 0 not finished)");
        }
        sb.append(String.format(Locale.ROOT, ", pct depth %d seed %d %,d executions", PCT_DEPTH, check.seed(), w.p));
        if (foundBy != null) {
            long at = foundBy.equals("bounded DPOR") ? w.x : foundBy.equals(d.name) ? w.d : w.p;
            sb.append(String.format(Locale.ROOT, "; found by %s (its execution %,d)", foundBy, at));
        }
        return sb.toString();
    }

    /** D's largest delay bound finished within its first {@code counted} executions. */
    private static int finishedBoundAt(Sample d, long counted) {
        int best = -1;
        for (int b = 0; b < d.boundEnds.size(); b++) {
            if (d.boundEnds.get(b) <= counted) {
                best = b;
            }
        }
        return best;
    }

    /** The executions the interleaved run counts of each search, and which one's violation stops it. */
    static final class Walk {
        long x;
        long d;
        long p;
        /** 'X', 'D', 'P', or 0: none. */
        char winner;
    }

    /**
     * Walks the rounds (X, D, P in each) until every search has ended or {@code budget} executions
     * are counted; a search's violation ends the walk there. {@code nx}: X's executions
     * ({@link Long#MAX_VALUE}: X never ends), {@code vx} the index of X's violating one (-1: none).
     */
    static Walk walk(long nx, long vx, Sample d, Sample p, long budget) {
        Walk w = new Walk();
        long pos = 0;
        while (pos < budget) {
            boolean any = false;
            if (w.x < nx) {
                any = true;
                pos++;
                if (w.x++ == vx) {
                    w.winner = 'X';
                    return w;
                }
                if (pos >= budget) {
                    break;
                }
            }
            if (w.d < d.n) {
                any = true;
                pos++;
                if (w.d++ == d.violationAt) {
                    w.winner = 'D';
                    return w;
                }
                if (pos >= budget) {
                    break;
                }
            }
            if (w.p < p.n) {
                any = true;
                pos++;
                if (w.p++ == p.violationAt) {
                    w.winner = 'P';
                    return w;
                }
            }
            if (!any) {
                break;
            }
            if (nx == Long.MAX_VALUE && w.d >= d.n && w.p >= p.n) {
                // only X is left, and it never ends: the rest of the budget is its
                w.x += budget - pos;
                break;
            }
        }
        return w;
    }

    // ---------------------------------------------------------------- the samplers

    private Sample delay(DeterministicRuntime rt, long timeStart) {
        Sample s = new Sample("delay bounding");
        Pacer pacer = pacer(timeStart);
        Program program = scenario.program();
        search:
        for (int b = 0; b <= DELAY_BOUND; b++) {
            ExplorationStrategy st = DfsStrategy.delayBounded(b);
            s.bound = b;
            do {
                if (s.n >= DELAY_EXECUTIONS) {
                    break search;
                }
                if (pacer.active() && pacer.timeUp(st, s.n, DELAY_EXECUTIONS)) {
                    s.timeCut = true;
                    break search;
                }
                if (execute(rt, program, st, s)) {
                    break search;
                }
            } while (st.advance());
            s.finishedBound = b;
            s.boundEnds.add(s.n);
        }
        return s;
    }

    private Sample pct(DeterministicRuntime rt, long timeStart) {
        Sample s = new Sample(String.format(Locale.ROOT, "pct depth %d seed %d", PCT_DEPTH, check.seed()));
        Pacer pacer = pacer(timeStart);
        Program program = scenario.program();
        ExplorationStrategy st = new PctStrategy(check.seed(), PCT_DEPTH, PCT_EXECUTIONS);
        do {
            if (pacer.active() && pacer.timeUp(st, s.n, PCT_EXECUTIONS)) {
                s.timeCut = true;
                break;
            }
            if (execute(rt, program, st, s)) {
                break;
            }
        } while (st.advance());
        return s;
    }

    /** A pacer for the time budget only (the samplers report no progress of their own). */
    private Pacer pacer(long timeStart) {
        long left = check.timeBudgetNanos() < 0 ? -1
                : Math.max(0, check.timeBudgetNanos() - (check.ticker().read() - timeStart));
        return new Pacer(check.ticker(), left, null, 0, scenario.name());
    }

    /** Runs one execution of a sampler; true at a violation (then minimised and replayed). */
    private boolean execute(DeterministicRuntime rt, Program program, ExplorationStrategy st, Sample s) {
        ExecutionResult r = rt.execute(program, st, config, check.steps(), false, false);
        long at = s.n++;
        rethrowHarnessErrors(r);
        if (r.violation() != null) {
            s.violationAt = at;
            s.outcomes.add(null);
            s.stepBound.add(false);
            counterexample(rt, program, st.schedule().copy(), r.violation(), s);
            return true;
        }
        boolean bound = r.stepBound() != null && !r.pruned();
        s.stepBound.add(bound);
        s.outcomes.add(r.pruned() || bound ? null : r.outcome());
        if (bound && s.firstStepBoundAt < 0) {
            s.firstStepBoundAt = at;
            s.firstStepBound = r.stepBound();
            s.stepBoundSchedule = st.schedule().copy();
        }
        return false;
    }

    /** Minimises and replays a sampler's counterexample, as {@link ModelCheck} does its own. */
    private void counterexample(DeterministicRuntime rt, Program program, Schedule failing, Violation found, Sample s) {
        long steps = check.steps();
        if (check.minimiseBudget() > 0) {
            failing = Minimiser.minimise(rt, program, config, steps, failing, found.kind(), check.minimiseBudget())
                    .schedule();
        }
        ExecutionResult replay = rt.execute(program, new ReplayStrategy(failing), config, steps, true, check.verbose());
        rethrowHarnessErrors(replay);
        if (replay.violation() == null || replay.violation().kind() != found.kind()) {
            throw new NondeterminismException(failing.size(), "replaying the failing schedule gave "
                    + (replay.violation() == null ? "no violation" : replay.violation().summary()));
        }
        s.violation = replay.violation();
        s.trace = replay.trace();
        s.diagram = Diagram.render(check.verbose() ? s.trace : Diagram.info(s.trace));
        s.token = new ReplayToken(scenario.name(), config.canonical(), failing).encode();
        s.oops = replay.oops();
    }

    private static void rethrowHarnessErrors(ExecutionResult r) {
        if (r.oops() instanceof ReplayMismatchException) {
            throw (ReplayMismatchException) r.oops();
        }
        if (r.oops() instanceof NondeterminismException) {
            throw (NondeterminismException) r.oops();
        }
    }
}
