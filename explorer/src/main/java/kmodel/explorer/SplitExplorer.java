package kmodel.explorer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import kmodel.explorer.search.DfsStrategy;
import kmodel.explorer.search.DporStrategy;
import kmodel.explorer.search.ExplorationStrategy;
import kmodel.explorer.search.Minimiser;
import kmodel.explorer.search.NondeterminismException;
import kmodel.explorer.search.ReplayMismatchException;
import kmodel.explorer.search.ReplayStrategy;
import kmodel.explorer.search.Schedule;
import kmodel.explorer.search.UnitProbe;
import kmodel.explorer.trace.Diagram;
import kmodel.explorer.trace.ReplayToken;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.TraceEvent;

/**
 * Exhaustive search split into <em>units</em> that can run side by side ({@code --jobs N}) or on
 * other machines ({@code --shard I/N}), with results identical to one sequential run over the
 * same units.
 *
 * <h2>Units</h2>
 * A unit is a prefix of branching decisions (two or more runnable tasks, or a data choice): every
 * execution starts with exactly one unit's prefix. The units of a level (one preemption bound of
 * the iterative search, or the unbounded search) are found from the scenario alone, never from
 * N: starting from the empty prefix, each prefix is run once ({@link UnitProbe}) to see the
 * alternatives at its next branching decision, and is replaced by one child per alternative that
 * the preemption bound allows (counting the preemptions the prefix already used), in exploration
 * order, until a level holds at least {@link #DEFAULT_UNIT_TARGET} units or no prefix has a
 * branching decision left. Each unit is explored by the configured strategy below its fixed
 * prefix ({@link DfsStrategy#prefix}, {@link DporStrategy#prefix}), never backtracking into it.
 * The levels are the phases of {@code ModelCheck.phases()}: with {@link ModelCheck#AUTO}, first
 * the unbounded level with its own budget ({@link SplitRun.Settings#levelBudget}), then, only if
 * that budget cut it, the bounded levels; a bounded level is explored by {@link DporStrategy}
 * with that bound when the reduction is on, by {@link DfsStrategy} when it is off.
 *
 * <h2>Soundness and redundancy</h2>
 * Plain DFS: the units partition the tree exactly, and their order is the order of the unsplit
 * depth-first search, so the units run one after another are the unsplit run, execution for
 * execution: same counts, same outcomes, same first counterexample. Source-DPOR: every execution
 * starts with some unit's prefix, and each unit explores every Mazurkiewicz trace of its
 * continuations (races whose reversal point lies inside the prefix are left to the unit that
 * takes the other branch there), so the union covers every trace; units whose prefixes commute
 * explore the same traces twice, which costs executions (measured in the README), never
 * soundness. In other words a unit's search is the unsplit one with every alternative in the
 * backtrack set of each prefix decision (a superset, so no less sound) and nothing asleep below
 * it. Bounded DPOR likewise: a conservative backtrack point (Coons et al.) that falls inside the
 * prefix is already covered there, so it is skipped too; a prefix decision counts its preemption,
 * so the search below it keeps to the bound, and the units of a level hold only prefixes within it.
 *
 * <h2>Merging</h2>
 * {@link #merge} replays the sequential order: levels in order, units in order, each unit's
 * executions in order, stopping at the first violation or where the execution budget is spent.
 * Each {@link UnitResult} numbers what it saw, so the merge keeps exactly what a sequential run
 * would have seen. A unit that finds a violation cancels only the units after it; a unit stops
 * early once the executions before it (a lower bound while they still run) leave it no budget.
 */
public final class SplitExplorer {
    /** Units a level of plain DFS is split into at least, where the tree has that many prefixes. */
    public static final int DEFAULT_UNIT_TARGET = 64;
    /**
     * Units of a reduced search at least: the units after the first branching decision.
     * Unbounded source-DPOR: units whose prefixes commute explore the same traces again (measured
     * in the README: on textbook-refcount 3 units cost 4.6 times the unsplit executions, 9 units
     * 12 times, 173 units 62 times). Bounded DPOR (no sleep sets) split at its first decision
     * measured no redundancy on the default scenarios; deeper it costs some (async-page-lock,
     * bound 2, 64 units: 1,860 executions against 1,802). So DPOR is split only as far as its
     * first decision; the unbounded phase of {@link ModelCheck#AUTO} is not split at all
     * ({@link SplitRun.Settings#unitTarget(int)}).
     */
    public static final int DPOR_UNIT_TARGET = 2;

    /** The default unit target: {@link #DPOR_UNIT_TARGET} with the reduction, else {@link #DEFAULT_UNIT_TARGET}. */
    public static int defaultUnitTarget(boolean dpor) {
        return dpor ? DPOR_UNIT_TARGET : DEFAULT_UNIT_TARGET;
    }
    /** At most this many rounds of prefix extension (a scenario with a long unbranching start). */
    static final int MAX_ROUNDS = 64;

    private final CheckTarget scenario;
    private final Kconfig config;
    private final SplitRun.Settings settings;
    private final boolean verbose;
    /** Replays spent minimising the counterexample ({@link ModelCheck#minimise}). */
    private final int minimiseBudget;

    SplitExplorer(CheckTarget scenario, Kconfig effectiveConfig, int preemptions, boolean reduction, boolean iterative,
            long steps, long budget, int unitTarget, boolean verbose, int minimiseBudget) {
        this.scenario = scenario;
        this.config = effectiveConfig;
        this.settings = new SplitRun.Settings(scenario.name(), effectiveConfig.canonical(), preemptions, reduction,
                iterative, steps, budget, unitTarget, scenario.autoBound());
        this.verbose = verbose;
        this.minimiseBudget = minimiseBudget;
    }

    SplitRun.Settings settings() {
        return settings;
    }

    // ---------------------------------------------------------------- units

    /** The strategy that explores one unit of level {@code bound}. */
    static ExplorationStrategy strategy(SplitRun.Settings st, int bound, int[] prefix) {
        if (bound == ModelCheck.UNBOUNDED) {
            return st.reduction ? (st.sourceSets ? DporStrategy.sourceSets() : new DporStrategy()).prefix(prefix)
                    : new DfsStrategy(Integer.MAX_VALUE).prefix(prefix);
        }
        return st.reduction ? (st.sourceSets ? DporStrategy.withoutBoundedSleepSets(bound) : new DporStrategy(bound))
                .prefix(prefix) : new DfsStrategy(bound).prefix(prefix);
    }

    /**
     * The description a sequential run prints for a search stopped at level {@code bound}; with
     * {@code unfinished}, after the unbounded phase of {@link ModelCheck#AUTO} ran out of its budget.
     */
    static String describe(SplitRun.Settings st, int bound, boolean budgetCut, boolean unfinished) {
        String d = strategy(st, bound, new int[0]).describe();
        if (budgetCut && d.contains("complete")) { // or stopped at a violation: unbounded, not complete
            d = d.replace("complete", "unbounded");
        }
        if (unfinished) {
            d = d + "; unbounded search not finished in "
                    + String.format(java.util.Locale.ROOT, "%,d", st.levelBudget(ModelCheck.UNBOUNDED)) + " executions";
        }
        return d;
    }

    /**
     * The units of level {@code bound}, in exploration order: prefixes of branching decisions,
     * extended one decision at a time until there are at least {@code target} of them or none
     * can be extended. A deterministic function of the scenario, its configuration, the bound and
     * {@code target}.
     */
    static List<int[]> units(DeterministicRuntime rt, Program program, Kconfig config, long steps, int bound,
            int target) {
        int limit = bound == ModelCheck.UNBOUNDED ? Integer.MAX_VALUE : bound;
        List<int[]> level = new ArrayList<>();
        List<Boolean> open = new ArrayList<>();
        level.add(new int[0]);
        open.add(true);
        for (int round = 0; round < MAX_ROUNDS && level.size() < target && open.contains(true); round++) {
            List<int[]> next = new ArrayList<>();
            List<Boolean> nextOpen = new ArrayList<>();
            for (int i = 0; i < level.size(); i++) {
                int[] p = level.get(i);
                if (!open.get(i)) {
                    next.add(p);
                    nextOpen.add(false);
                    continue;
                }
                UnitProbe probe = new UnitProbe(p);
                ExecutionResult r = rt.execute(program, probe, config, steps, false, false);
                rethrowHarnessErrors(r);
                int[] options = probe.options();
                if (options == null) {
                    next.add(p);
                    nextOpen.add(false);
                    continue;
                }
                for (int k = 0; k < options.length; k++) {
                    if ((long) probe.prefixPreemptions() + probe.costs()[k] <= limit) {
                        int[] child = Arrays.copyOf(p, p.length + 1);
                        child[p.length] = options[k];
                        next.add(child);
                        nextOpen.add(true);
                    }
                }
            }
            level = next;
            open = nextOpen;
        }
        return level;
    }

    private static void rethrowHarnessErrors(ExecutionResult r) {
        if (r.oops() instanceof ReplayMismatchException) {
            throw (ReplayMismatchException) r.oops();
        }
        if (r.oops() instanceof NondeterminismException) {
            throw (NondeterminismException) r.oops();
        }
    }

    /** Shared by the units of one level while they run: how far each got, and the first violation. */
    private static final class LevelState {
        final long before;
        final long budget;
        /** The level's own budget ({@link SplitRun.Settings#levelBudget}), or {@link Long#MAX_VALUE}. */
        final long levelBudget;
        final AtomicLongArray live;
        final AtomicInteger lowestViolation = new AtomicInteger(Integer.MAX_VALUE);

        LevelState(int units, long before, long budget, long levelBudget) {
            this.before = before;
            this.budget = budget;
            this.levelBudget = levelBudget < 0 ? Long.MAX_VALUE : levelBudget;
            this.live = new AtomicLongArray(units);
        }

        /**
         * Whether unit {@code u}, having run {@code n} executions, can stop: a unit before it found
         * a violation, or the executions before it (at least {@code before} plus what the units
         * before it have run so far) leave none of its next executions within the budget, or
         * those of the units before it in this level none within the level's own budget.
         */
        boolean stop(int u, long n) {
            if (lowestViolation.get() < u) {
                return true;
            }
            long inLevel = 0;
            for (int v = 0; v < u && inLevel <= budget; v++) {
                inLevel += live.get(v);
            }
            return n > budget - before - inLevel || n > levelBudget - inLevel;
        }

        void violation(int u) {
            lowestViolation.accumulateAndGet(u, Math::min);
        }
    }

    /** Explores unit {@code index} of level {@code bound} on {@code rt}. */
    private UnitResult runUnit(DeterministicRuntime rt, int bound, int index, int[] prefix, LevelState state) {
        UnitResult u = new UnitResult(bound, index, prefix);
        if (state.stop(index, 0)) {
            return u;
        }
        Program program = scenario.program();
        ExplorationStrategy s = strategy(settings, bound, prefix);
        long n = 0;
        boolean more;
        do {
            if ((n & 15) == 0 && n > 0 && state.stop(index, n)) {
                u.ran(n);
                return u;
            }
            ExecutionResult r = rt.execute(program, s, config, settings.steps, false, false);
            long at = n++;
            state.live.lazySet(index, n);
            rethrowHarnessErrors(r);
            if ((r.violation() != null || r.stepBound() != null) && s instanceof DporStrategy) {
                ((DporStrategy) s).executionCut();
            }
            if (r.violation() != null) {
                u.violation(r.violation(), r.oops(), s.schedule().toArray(), at);
                u.ran(n);
                state.violation(index);
                return u;
            }
            if (r.pruned()) {
                u.pruned(at);
            } else {
                if (r.stepBound() != null) {
                    u.stepBound(r.stepBound(), at, s.schedule());
                } else {
                    u.outcome(r.outcome(), at);
                }
            }
            more = s.advance();
        } while (more);
        u.ran(n);
        u.finished(true);
        return u;
    }

    /**
     * Enumerates level {@code bound} and explores the units that {@code run} owns on the pool's
     * jobs; {@code before} executions precede the level (the merge's count, or a shard's own).
     */
    private SplitRun.Level runLevel(CheckPool pool, SplitRun run, int bound, long before) {
        List<int[]> units = CheckPool.join(pool.submit(rt -> units(rt, scenario.program(), config, settings.steps,
                bound, settings.unitTarget(bound))));
        SplitRun.Level level = new SplitRun.Level(bound, units.size());
        LevelState state = new LevelState(units.size(), before, settings.budget, settings.levelBudget(bound));
        List<CompletableFuture<UnitResult>> futures = new ArrayList<>();
        for (int i = 0; i < units.size(); i++) {
            if (run.owns(i)) {
                final int index = i;
                final int[] prefix = units.get(i);
                futures.add(pool.submit(rt -> runUnit(rt, bound, index, prefix, state)));
            }
        }
        for (CompletableFuture<UnitResult> f : futures) {
            level.put(CheckPool.join(f));
        }
        run.add(level);
        return level;
    }

    /** The whole split search on {@code pool}: what one sequential run over the same units reports. */
    CheckResult run(CheckPool pool) {
        long start = System.nanoTime();
        SplitRun run = new SplitRun(settings, 0, 1);
        Merged m = merge(settings, (bound, before) -> runLevel(pool, run, bound, before));
        run.nanos(System.nanoTime() - start);
        return CheckPool.join(pool.submit(rt -> finish(rt, scenario, config, settings, m, run, verbose, minimiseBudget,
                System.nanoTime() - start)));
    }

    /**
     * Shard {@code index} of {@code count}: every level a sequential run might need, units
     * {@code u % count == index} only. A shard stops after a level in which it found a violation,
     * or once its own executions spend the budget: the merge never looks further.
     */
    SplitRun runShard(CheckPool pool, int index, int count) {
        long start = System.nanoTime();
        SplitRun run = new SplitRun(settings, index, count);
        long own = 0;
        for (int b : settings.levels()) {
            SplitRun.Level level = runLevel(pool, run, b, own);
            boolean violation = false;
            for (int u = 0; u < level.unitCount(); u++) {
                UnitResult r = level.unit(u);
                if (r != null) {
                    own += r.executions();
                    violation |= r.violationAt() >= 0;
                }
            }
            if (own >= settings.budget || violation && settings.levelBudget(b) < 0) {
                break;
            }
            // A level with a budget of its own (the unbounded phase of --preemptions auto): whether
            // it finished, or where its budget cut it, depends on the other shards' units, so the
            // levels after it are explored too; the merge uses them only if it needs them.
        }
        run.nanos(System.nanoTime() - start);
        return run;
    }

    // ---------------------------------------------------------------- merging

    /** Where the merge gets a level: run it now (in process), or from shard files. */
    interface LevelSource {
        /** Level {@code bound}, with {@code before} executions before it; null when nobody explored it. */
        SplitRun.Level level(int bound, long before);
    }

    /** Thrown when shards do not fit together: names the shard whose part is missing or wrong. */
    public static final class InconsistentShards extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final int shard;

        InconsistentShards(int shard, String message) {
            super(message);
            this.shard = shard;
        }

        /** The shard index at fault. */
        public int shard() {
            return shard;
        }
    }

    /** What the sequential order adds up to. */
    static final class Merged {
        long count;
        final TreeSet<String> outcomes = new TreeSet<>();
        long boundHits;
        long sleepBlocked;
        String firstBound;
        int[] boundSchedule;
        UnitResult violating;
        boolean budgetCut;
        /** The unbounded phase of {@link ModelCheck#AUTO} ran out of its own budget. */
        boolean unfinished;
        int lastBound;
    }

    /**
     * Replays the sequential order over the levels of {@code src}; see the class comment. As
     * {@code ModelCheck.explore}: a level with a budget of its own (the unbounded phase of
     * {@link ModelCheck#AUTO}) that finishes ends the search; one that its budget cuts while the
     * search's budget is left hands on to the next level.
     */
    static Merged merge(SplitRun.Settings st, LevelSource src) {
        Merged m = new Merged();
        search:
        for (int b : st.levels()) {
            m.lastBound = b;
            long own = st.levelBudget(b);
            long cap = own >= 0 ? Math.min(m.count + own, st.budget) : st.budget;
            if (m.count >= cap) { // every level has at least one execution
                if (own >= 0 && m.count < st.budget) {
                    m.unfinished = true;
                    continue;
                }
                m.budgetCut = true;
                break;
            }
            SplitRun.Level level = src.level(b, m.count);
            if (level == null) {
                throw new InconsistentShards(0, "no shard explored level " + levelName(b));
            }
            for (int u = 0; u < level.unitCount(); u++) {
                UnitResult r = level.unit(u);
                String where = "unit " + u + " of level " + levelName(b);
                if (r == null) {
                    throw new InconsistentShards(-1, where + " is missing");
                }
                long allowed = cap - m.count;
                if (r.violationAt() >= 0 && r.violationAt() < allowed) {
                    take(m, r, r.violationAt());
                    m.count += r.violationAt() + 1;
                    m.violating = r;
                    break search;
                }
                if (r.executions() > allowed || r.executions() == allowed && u + 1 < level.unitCount()) {
                    // an execution is left to explore and the budget is spent
                    take(m, r, allowed);
                    m.count += allowed;
                    if (own >= 0 && m.count < st.budget) {
                        m.unfinished = true;
                        continue search;
                    }
                    m.budgetCut = true;
                    break search;
                }
                if (!r.finished()) {
                    throw new InconsistentShards(-1, where + " stopped after " + r.executions()
                            + " executions, before its end, with no violation and budget left");
                }
                take(m, r, r.executions());
                m.count += r.executions();
            }
            if (own >= 0) {
                break; // the level with a budget of its own finished: complete, the levels after it are not needed
            }
        }
        return m;
    }

    private static String levelName(int bound) {
        return bound == ModelCheck.UNBOUNDED ? "unbounded" : "bound " + bound;
    }

    /** Adds what unit {@code r} saw in its executions before number {@code limit}. */
    private static void take(Merged m, UnitResult r, long limit) {
        for (Map.Entry<String, Long> e : r.outcomes().entrySet()) {
            if (e.getValue() < limit) {
                m.outcomes.add(e.getKey());
            }
        }
        m.sleepBlocked += r.prunedBefore(limit);
        long[] hits = r.boundHits();
        for (long h : hits) {
            if (h < limit) {
                if (m.firstBound == null) {
                    m.firstBound = r.firstBound();
                    m.boundSchedule = r.boundSchedule();
                }
                m.boundHits++;
            }
        }
    }

    /** The check's result: replays the winning counterexample (on {@code rt}) for its diagram and token. */
    static CheckResult finish(DeterministicRuntime rt, CheckTarget scenario, Kconfig config, SplitRun.Settings st,
            Merged m, SplitRun run, boolean verbose, int minimiseBudget, long nanos) {
        List<TraceEvent> trace = List.of();
        String diagram = "";
        String token = null;
        Violation violation = null;
        Throwable oops = null;
        if (m.violating != null) {
            Schedule failing = Schedule.of(m.violating.schedule());
            if (minimiseBudget > 0) {
                failing = Minimiser.minimise(rt, scenario.program(), config, st.steps, failing, m.violating.kind(),
                        minimiseBudget).schedule();
            }
            ExecutionResult replay = rt.execute(scenario.program(), new ReplayStrategy(failing), config, st.steps, true,
                    verbose);
            rethrowHarnessErrors(replay);
            if (replay.violation() == null || replay.violation().kind() != m.violating.kind()) {
                throw new NondeterminismException(failing.size(), "replaying the failing schedule gave "
                        + (replay.violation() == null ? "no violation" : replay.violation().summary()));
            }
            violation = replay.violation(); // the minimised run's, as its diagram shows
            trace = replay.trace();
            diagram = Diagram.render(verbose ? trace : Diagram.info(trace));
            token = new ReplayToken(scenario.name(), config.canonical(), failing).encode();
            oops = replay.oops();
        }
        boolean complete = !m.budgetCut && violation == null;
        CheckResult r = new CheckResult(scenario.name(), config, describe(st, m.lastBound, m.budgetCut || violation != null, m.unfinished), m.count,
                m.outcomes, nanos, complete, violation, trace, diagram, token, m.boundHits, m.firstBound, oops,
                m.budgetCut);
        r.split(run);
        r.sleepBlocked(m.sleepBlocked);
        Schedule stopped = m.boundSchedule == null ? null : Schedule.of(m.boundSchedule);
        String stepBoundToken = ModelCheck.stepBoundToken(scenario, config, st.steps, stopped);
        if (stepBoundToken != null) {
            // the token is printed for replay: it must stop there again (a merge's comes from a file)
            ExecutionResult again = rt.execute(scenario.program(), new ReplayStrategy(stopped), config, st.steps, false,
                    false);
            rethrowHarnessErrors(again);
            if (again.stepBound() == null) {
                throw new NondeterminismException(stopped.size(), "replaying the first step-bound stop gave "
                        + (again.violation() == null ? "an execution that ended" : again.violation().summary()));
            }
        }
        return r.stepBoundToken(stepBoundToken);
    }

    /**
     * {@code kmodel merge}: the result one run over all units reports, from the runs of its shards
     * (each shard exactly once, all with the same settings). Throws {@link InconsistentShards}
     * naming the shard at fault, or IllegalArgumentException, when they do not fit together.
     */
    public static CheckResult merge(List<SplitRun> shards, CheckTarget scenario, Kconfig config, boolean verbose) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("no shards to merge");
        }
        SplitRun first = shards.get(0);
        int n = first.shardCount();
        SplitRun[] byIndex = new SplitRun[n];
        long nanos = 0;
        for (SplitRun s : shards) {
            String d = first.settings().difference(s.settings());
            if (d != null) {
                throw new InconsistentShards(s.shardIndex(), "its settings differ from shard " + first.shardIndex()
                        + "'s: " + d);
            }
            if (s.shardCount() != n) {
                throw new InconsistentShards(s.shardIndex(), "it is one of " + s.shardCount() + " shards, shard "
                        + first.shardIndex() + " one of " + n);
            }
            if (byIndex[s.shardIndex()] != null) {
                throw new InconsistentShards(s.shardIndex(), "shard " + s.shardIndex() + "/" + n + " is given twice");
            }
            byIndex[s.shardIndex()] = s;
            nanos += s.nanos();
        }
        for (int i = 0; i < n; i++) {
            if (byIndex[i] == null) {
                throw new IllegalArgumentException("shard " + i + "/" + n + " of scenario " + scenario.name()
                        + " is missing");
            }
        }
        SplitRun.Settings st = first.settings();
        SplitRun all = new SplitRun(st, 0, 1);
        all.nanos(nanos);
        final long total = nanos;
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                Merged m = merge(st, (bound, before) -> checkUnits(rt, scenario, config, st, combine(byIndex, all, bound),
                        n));
                return finish(rt, scenario, config, st, m, all, verbose, Minimiser.DEFAULT_BUDGET, total);
            }
        });
    }

    /**
     * Most executions {@link #checkUnits} re-runs of one unit to check what it claims: a claim
     * beyond that is checked that far (its first executions exist), not to its end.
     */
    public static final long CHECK_PER_UNIT = 256;

    /**
     * What the shard files claim about {@code level}, checked against the scenario on {@code rt}:
     * the level has the units this search derives ({@link #units}, a few probe executions), each
     * with its prefix (a prefix from another scenario or search is refused); and each unit's
     * executions fit its prefix: its subtree, re-explored for up to {@link #CHECK_PER_UNIT}
     * executions, has no fewer executions than the unit claims, no violation before its claimed
     * last, and, when the unit claims to have finished, no more. Throws {@link InconsistentShards}
     * naming the shard that holds the unit.
     */
    static SplitRun.Level checkUnits(DeterministicRuntime rt, CheckTarget scenario, Kconfig config,
            SplitRun.Settings st, SplitRun.Level level, int shardCount) {
        int bound = level.bound();
        Program program = scenario.program();
        List<int[]> expected = units(rt, program, config, st.steps, bound, st.unitTarget(bound));
        if (expected.size() != level.unitCount()) {
            throw new InconsistentShards(0, "level " + levelName(bound) + " has " + level.unitCount()
                    + " units, but this search of " + scenario.name() + " has " + expected.size());
        }
        for (int u = 0; u < level.unitCount(); u++) {
            UnitResult r = level.unit(u);
            String where = "unit " + u + " of level " + levelName(bound);
            if (!Arrays.equals(expected.get(u), r.prefix())) {
                throw new InconsistentShards(u % shardCount, where + " has the prefix " + Arrays.toString(r.prefix())
                        + ", but this search of " + scenario.name() + " starts that unit with "
                        + Arrays.toString(expected.get(u)) + " (a prefix from another scenario or search)");
            }
            long claimed = r.executions();
            long limit = Math.min(claimed + 1, CHECK_PER_UNIT);
            ExplorationStrategy s = strategy(st, bound, r.prefix());
            long n = 0;
            boolean more = claimed > 0;
            while (more && n < limit) {
                ExecutionResult x = rt.execute(program, s, config, st.steps, false, false);
                n++;
                rethrowHarnessErrors(x);
                if ((x.violation() != null || x.stepBound() != null) && s instanceof DporStrategy) {
                    ((DporStrategy) s).executionCut();
                }
                if (x.violation() != null) {
                    if (n < claimed) {
                        throw new InconsistentShards(u % shardCount, where + " claims " + claimed
                                + " executions, but its prefix stops at a violation in execution " + (n - 1));
                    }
                    more = false;
                    break;
                }
                more = s.advance();
            }
            if (!more && n < claimed) {
                throw new InconsistentShards(u % shardCount, where + " claims " + claimed
                        + " executions, more than its prefix allows (" + n + ")");
            }
            if (r.finished() && n > claimed) {
                throw new InconsistentShards(u % shardCount, where + " claims it finished after " + claimed
                        + " executions, but its prefix has more");
            }
        }
        return level;
    }

    /** Level {@code bound} from every shard's part; each unit from the shard that owns it. */
    private static SplitRun.Level combine(SplitRun[] shards, SplitRun all, int bound) {
        SplitRun.Level out = null;
        for (SplitRun s : shards) {
            SplitRun.Level l = s.levels().get(bound);
            if (l == null) {
                throw new InconsistentShards(s.shardIndex(), "it did not explore level " + levelName(bound)
                        + ", which the merge needs");
            }
            if (out == null) {
                out = new SplitRun.Level(bound, l.unitCount());
            } else if (l.unitCount() != out.unitCount()) {
                throw new InconsistentShards(s.shardIndex(), "level " + levelName(bound) + " has " + l.unitCount()
                        + " units, shard " + shards[0].shardIndex() + "'s " + out.unitCount());
            }
            for (int u = 0; u < l.unitCount(); u++) {
                UnitResult r = l.unit(u);
                boolean owns = s.owns(u);
                if (owns && r == null) {
                    throw new InconsistentShards(s.shardIndex(), "unit " + u + " of level " + levelName(bound)
                            + " is missing");
                }
                if (!owns && r != null) {
                    throw new InconsistentShards(s.shardIndex(), "it holds unit " + u + " of level "
                            + levelName(bound) + ", which belongs to shard " + (u % s.shardCount()));
                }
                if (r != null) {
                    out.put(r);
                }
            }
        }
        all.add(out);
        return out;
    }
}
