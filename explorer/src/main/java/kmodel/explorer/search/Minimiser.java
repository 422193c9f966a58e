package kmodel.explorer.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;

/**
 * Makes a counterexample smaller before it is printed: fewest preemptions first, then fewest
 * context switches, then fewest steps ({@link Measure}, compared in that order). Deterministic
 * greedy descent from the schedule the search found, bounded by a budget of replays.
 *
 * <h2>How it works</h2>
 * A schedule is re-described by its <em>non-default decisions</em>, each keyed by where it is
 * taken rather than by its position: "when task A has done k steps, run B" (a preemption, or a
 * pick after A blocked or exited other than the lowest-numbered runnable task), and "the j-th data
 * choice in A's step k is v" (other than 0). Everywhere else the default holds: the current
 * task goes on running, or the lowest-numbered runnable task runs when it cannot, and a data
 * choice takes 0. Keyed this way, a decision keeps its meaning when an earlier one is removed.
 * Candidates derived from the best schedule so far, tried in this order:
 * <ol>
 *   <li>each non-default decision kept alone (every other one back to the default);</li>
 *   <li>each prefix of the schedule, followed by defaults only (no preemption after it);</li>
 *   <li>each non-default decision dropped; each preemption taken one step of the preempted
 *       task later, or one step earlier;</li>
 *   <li>each pick of a task changed to each other task;</li>
 *   <li>at each free switch point (the running task blocked or exited and several can run),
 *       each other task picked, with the rest unchanged or with one preemption dropped;</li>
 *   <li>each pair of non-default decisions kept alone, and each pair dropped.</li>
 * </ol>
 * A candidate runs with {@link Guided} (it takes a keyed decision only if the task it names is
 * runnable there); the first one that ends in a violation of the same kind and measures smaller
 * than the best becomes the best (its schedule is the one it really ran, so it replays exactly),
 * and candidates are derived afresh from it. It stops at a local minimum (no single change of
 * these makes it smaller) or when the budget is spent. The result is never larger than the
 * schedule it started from.
 *
 * <h2>What is counted</h2>
 * A preemption is a decision that switches away from a task that could have gone on; a context
 * switch is a decision that runs another task than the one that reached the point (every switch
 * after a task blocks or exits counts, the first pick of an execution too); steps are scheduling
 * points. Switches the runtime makes without asking (one runnable task left) are the same in
 * every schedule that reaches them and are not counted.
 */
public final class Minimiser {
    /** Default budget of candidate replays per counterexample. */
    public static final int DEFAULT_BUDGET = 1_000;

    /** The size of a counterexample, compared preemptions first, then switches, then steps. */
    public static final class Measure implements Comparable<Measure> {
        private final int preemptions;
        private final int switches;
        private final long steps;

        Measure(int preemptions, int switches, long steps) {
            this.preemptions = preemptions;
            this.switches = switches;
            this.steps = steps;
        }

        /** Switches away from a task that could have gone on. */
        public int preemptions() {
            return preemptions;
        }

        /** Decisions that ran another task than the one that reached the point. */
        public int switches() {
            return switches;
        }

        /** Scheduling points passed. */
        public long steps() {
            return steps;
        }

        @Override
        public int compareTo(Measure o) {
            if (preemptions != o.preemptions) {
                return Integer.compare(preemptions, o.preemptions);
            }
            if (switches != o.switches) {
                return Integer.compare(switches, o.switches);
            }
            return Long.compare(steps, o.steps);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Measure && compareTo((Measure) o) == 0;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(new long[] {preemptions, switches, steps});
        }

        @Override
        public String toString() {
            return preemptions + " preemption(s), " + switches + " switch(es), " + steps + " step(s)";
        }
    }

    /** What minimising gave. */
    public static final class Result {
        private final Schedule schedule;
        private final Measure found;
        private final Measure minimised;
        private final int replays;

        Result(Schedule schedule, Measure found, Measure minimised, int replays) {
            this.schedule = schedule;
            this.found = found;
            this.minimised = minimised;
            this.replays = replays;
        }

        /** The minimised schedule (replays exactly with {@link ReplayStrategy}). */
        public Schedule schedule() {
            return schedule;
        }

        /** The size of the schedule the search found. */
        public Measure found() {
            return found;
        }

        /** The size of the minimised one (never larger). */
        public Measure minimised() {
            return minimised;
        }

        /** Candidate executions run (the budget bounds it). */
        public int replays() {
            return replays;
        }
    }

    private Minimiser() {
    }

    /**
     * Minimises {@code found}, a schedule of {@code program} that ends in a violation of
     * {@code kind}, with at most {@code budget} candidate executions on {@code rt}.
     */
    public static Result minimise(DeterministicRuntime rt, Program program, Kconfig config, long stepLimit,
            Schedule found, ViolationKind kind, int budget) {
        Guided exact = Guided.positional(found.toArray());
        ExecutionResult first = rt.execute(program, exact, config, stepLimit, false, false);
        if (first.violation() == null || first.violation().kind() != kind || exact.diverged) {
            // Does not replay (a harness error the caller's own replay will report): leave it alone.
            return new Result(found, null, null, 1);
        }
        Guided best = exact;
        Measure bestMeasure = exact.measure(first.steps());
        Measure start = bestMeasure;
        int replays = 1;
        improve:
        while (replays < budget) {
            for (Guided g : candidates(best)) {
                if (replays >= budget) {
                    break improve;
                }
                ExecutionResult r = rt.execute(program, g, config, stepLimit, false, false);
                replays++;
                if (r.violation() == null || r.violation().kind() != kind || r.stepBound() != null) {
                    continue;
                }
                Measure measure = g.measure(r.steps());
                if (measure.compareTo(bestMeasure) < 0) {
                    best = g;
                    bestMeasure = measure;
                    continue improve;
                }
            }
            break;
        }
        return new Result(best.schedule().copy(), start, bestMeasure, replays);
    }

    /**
     * The candidates derived from {@code best}, in the order tried: each non-default decision
     * alone; each prefix of the schedule with no preemption after it; each non-default decision
     * dropped; each preemption moved a step later or earlier; each pair of non-default
     * decisions alone.
     */
    private static ArrayList<Guided> candidates(Guided best) {
        ArrayList<long[]> keyed = best.nonDefault();
        int[] positions = best.schedule().toArray();
        ArrayList<Guided> out = new ArrayList<>();
        for (long[] e : keyed) {
            HashMap<Long, Integer> m = new HashMap<>();
            m.put(e[0], (int) e[1]);
            out.add(Guided.keyed(m));
        }
        for (int i = 0; i < positions.length; i++) {
            out.add(Guided.prefix(Arrays.copyOf(positions, i)));
        }
        for (int i = 0; i < keyed.size(); i++) {
            long[] e = keyed.get(i);
            for (int c = 0; c < 3; c++) {
                HashMap<Long, Integer> m = new HashMap<>();
                for (long[] o : keyed) {
                    m.put(o[0], (int) o[1]);
                }
                m.remove(e[0]);
                if (c > 0) {
                    if (e[2] == 0) {
                        break; // not a preemption: only dropped
                    }
                    long moved = Guided.shiftStep(e[0], c == 1 ? 1 : -1);
                    if (moved < 0 || m.containsKey(moved)) {
                        continue;
                    }
                    m.put(moved, (int) e[1]);
                }
                out.add(Guided.keyed(m));
            }
        }
        for (int i = 0; i < keyed.size(); i++) {
            long[] e = keyed.get(i);
            if (((e[0] >> 15) & 1) != 0) {
                continue; // a data choice
            }
            for (int t = 0; t <= best.maxTask; t++) {
                if (t == e[1]) {
                    continue;
                }
                HashMap<Long, Integer> m = new HashMap<>();
                for (long[] o : keyed) {
                    m.put(o[0], (int) o[1]);
                }
                m.put(e[0], t);
                out.add(Guided.keyed(m));
            }
        }
        for (long[] f : best.freeSwitches()) {
            for (int t = 0; t <= best.maxTask; t++) {
                if (t == f[1]) {
                    continue;
                }
                HashMap<Long, Integer> m = new HashMap<>();
                for (long[] o : keyed) {
                    m.put(o[0], (int) o[1]);
                }
                m.put(f[0], t);
                out.add(Guided.keyed(m));
                for (long[] e : keyed) {
                    if (e[2] == 1) {
                        HashMap<Long, Integer> without = new HashMap<>(m);
                        without.remove(e[0]);
                        out.add(Guided.keyed(without));
                    }
                }
            }
        }
        for (int i = 0; i < keyed.size(); i++) {
            for (int j = i + 1; j < keyed.size(); j++) {
                HashMap<Long, Integer> m = new HashMap<>();
                m.put(keyed.get(i)[0], (int) keyed.get(i)[1]);
                m.put(keyed.get(j)[0], (int) keyed.get(j)[1]);
                out.add(Guided.keyed(m));
                HashMap<Long, Integer> drop = new HashMap<>();
                for (long[] o : keyed) {
                    drop.put(o[0], (int) o[1]);
                }
                drop.remove(keyed.get(i)[0]);
                drop.remove(keyed.get(j)[0]);
                out.add(Guided.keyed(drop));
            }
        }
        return out;
    }

    /** Measures {@code schedule} by replaying it exactly; null when it does not replay. */
    public static Measure measure(DeterministicRuntime rt, Program program, Kconfig config, long stepLimit,
            Schedule schedule) {
        Guided exact = Guided.positional(schedule.toArray());
        ExecutionResult r = rt.execute(program, exact, config, stepLimit, false, false);
        return exact.diverged ? null : exact.measure(r.steps());
    }

    /**
     * Runs a schedule given by position (the found one) or by keyed non-default decisions (a
     * candidate), and records what it really did: the positional schedule of real choices (for
     * the token), the non-default decisions by key, and the size measures. It observes every
     * step ({@link #observesSteps()}) so that it can count each task's steps; it never prunes.
     */
    static final class Guided implements ExplorationStrategy {
        private static final int TASK = 0;
        private static final int VALUE = 1;

        private final int[] positional;
        /** With {@link #positional}: past its end, take defaults instead of diverging. */
        private final boolean prefixOnly;
        private final HashMap<Long, Integer> keyed;
        private final Schedule schedule = new Schedule();
        /** Non-default decisions taken: {key, value, 1 if a preemption}. */
        private final ArrayList<long[]> nonDefault = new ArrayList<>();
        /** Free switch points (the current task blocked or exited, several could run): {key, taken}. */
        private final ArrayList<long[]> freeSwitches = new ArrayList<>();
        private int[] stepsOf = new int[8];
        /** The highest task id seen runnable. */
        int maxTask;
        private int last;
        private int valueSeq;
        private int pos;
        private int preemptions;
        private int switches;
        /** A positional decision could not be followed (an exact replay must not diverge). */
        boolean diverged;

        private Guided(int[] positional, boolean prefixOnly, HashMap<Long, Integer> keyed) {
            this.positional = positional;
            this.prefixOnly = prefixOnly;
            this.keyed = keyed;
        }

        /** Exactly these decisions, by position. */
        static Guided positional(int[] decisions) {
            return new Guided(decisions, false, null);
        }

        /** These decisions by position, then defaults only. */
        static Guided prefix(int[] decisions) {
            return new Guided(decisions, true, null);
        }

        /** Defaults, except these keyed decisions. */
        static Guided keyed(HashMap<Long, Integer> decisions) {
            return new Guided(null, false, decisions);
        }

        /** Key of a decision: the task that ran last (-1 before the first), its steps, kind, sequence. */
        private static long key(int task, int steps, int kind, int seq) {
            return ((long) (task + 2) << 48) | ((long) steps << 16) | ((long) kind << 15) | (seq & 0x7fff);
        }

        /** The key of a task decision {@code delta} steps later; -1 if there is no such step. */
        static long shiftStep(long key, int delta) {
            long steps = (key >>> 16) & 0xffffffffL;
            if (steps + delta < 0 || (key >>> 48) < 2) {
                return -1;
            }
            return (key & ~(0xffffffffL << 16)) | ((steps + delta) << 16);
        }

        @Override
        public boolean observesSteps() {
            return true;
        }

        @Override
        public void beginExecution() {
            pos = 0;
            preemptions = 0;
            switches = 0;
            diverged = false;
            last = -1;
            valueSeq = 0;
            java.util.Arrays.fill(stepsOf, 0);
            schedule.clear();
            nonDefault.clear();
            freeSwitches.clear();
        }

        @Override
        public int pickTask(int[] ids, int n, int current) {
            int steps = 0;
            if (last >= 0) {
                if (last >= stepsOf.length) {
                    stepsOf = java.util.Arrays.copyOf(stepsOf, Math.max(last + 1, stepsOf.length * 2));
                }
                steps = ++stepsOf[last];
            }
            valueSeq = 0;
            maxTask = Math.max(maxTask, ids[n - 1]);
            int def = current >= 0 ? current : ids[0];
            if (n == 1) {
                last = ids[0];
                return last; // no choice: not a decision of the schedule
            }
            long key = key(last, steps, TASK, 0);
            Integer want = positional != null ? (pos < positional.length ? Integer.valueOf(positional[pos]) : null)
                    : keyed.get(key);
            pos++;
            int pick = -1;
            if (want != null) {
                for (int i = 0; i < n; i++) {
                    if (ids[i] == want) {
                        pick = want;
                        break;
                    }
                }
            }
            if (pick < 0) {
                if (positional != null && !(prefixOnly && pos > positional.length)) {
                    diverged = true;
                }
                pick = def;
            }
            if (current < 0 || pick != current) {
                switches++;
            }
            boolean preemption = current >= 0 && pick != current;
            if (preemption) {
                preemptions++;
            }
            if (pick != def) {
                nonDefault.add(new long[] {key, pick, preemption ? 1 : 0});
            }
            if (current < 0) {
                freeSwitches.add(new long[] {key, pick});
            }
            schedule.add(pick);
            last = pick;
            return pick;
        }

        @Override
        public int pickValue(int n) {
            int steps = last >= 0 && last < stepsOf.length ? stepsOf[last] : 0;
            long key = key(last, steps, VALUE, valueSeq++);
            Integer want = positional != null ? (pos < positional.length ? Integer.valueOf(positional[pos]) : null)
                    : keyed.get(key);
            pos++;
            int v = 0;
            if (want != null && want >= 0 && want < n) {
                v = want;
            } else if (positional != null && !(prefixOnly && pos > positional.length)) {
                diverged = true;
            }
            if (v != 0) {
                nonDefault.add(new long[] {key, v, 0});
            }
            schedule.add(v);
            return v;
        }

        Measure measure(long steps) {
            return new Measure(preemptions, switches, steps);
        }

        /** The free switch points of the last execution, in the order met. */
        ArrayList<long[]> freeSwitches() {
            return new ArrayList<>(freeSwitches);
        }

        /** The non-default decisions of the last execution, in the order taken. */
        ArrayList<long[]> nonDefault() {
            return new ArrayList<>(nonDefault);
        }

        @Override
        public Schedule schedule() {
            return schedule;
        }

        @Override
        public boolean advance() {
            return false;
        }

        @Override
        public String describe() {
            return "minimise";
        }
    }
}
