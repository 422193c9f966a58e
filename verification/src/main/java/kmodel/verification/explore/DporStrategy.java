package kmodel.verification.explore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;

/**
 * Exhaustive search with dynamic partial-order reduction: source-DPOR with sleep sets (Abdulla,
 * Aronis, Jonsson and Sagonas, "Source Sets: A Foundation for Optimal Dynamic Partial Order
 * Reduction", JACM 2017, Algorithm 1), by stateless re-execution, without a preemption bound.
 * It explores at least one execution of every Mazurkiewicz trace of the scenario, so every end
 * state, every deadlock and every violation an execution can reach is reached: a pass is
 * <em>complete</em> for the scenario.
 *
 * <h2>Dependence</h2>
 * The runtime reports, for every step (the run of one task from one scheduling decision to the
 * next), its footprint: the task itself, the object named by the scheduling point the step starts
 * from (the spinlock, flags word, refcount, wait-queue entry or task a primitive acts on), every
 * tracked object touched, freed or created, and every task spawned. Two steps of different tasks
 * are dependent when their footprints share an object; every access counts as a write. This is
 * sound as long as the model keeps its own rule that shared state is touched only through the
 * runtime's primitives; the equivalence test (reduced and plain search reach the same end states
 * and the same violation kinds on every scenario and catalog bug) checks that rule.
 *
 * <ul>
 *   <li>Waking a task, signalling it or queueing task_work on it names the task, and every step of
 *       a task has the task in its footprint, so they never commute with what the task does.</li>
 *   <li>A task spinning on a lock resumes with the lock in its footprint; a sleeper resumes only
 *       after a wake-up that names it; a spawned task's steps depend on the step that spawned it.
 *       So whatever enables a task happens before the task's next step.</li>
 * </ul>
 *
 * <h2>How it works</h2>
 * Happens-before is kept with vector clocks. When a step {@code e} is in a race with an earlier
 * step {@code e'} of another task (dependent, with no other step ordering them), the search
 * computes the tasks that can start the reversed sequence from the state before {@code e'} (the
 * initials of {@code notdep(e').e}) and, unless one of them is already in that state's backtrack
 * set, adds one. Sleep sets stop re-exploring a task whose step commutes with what was done since
 * a sibling branch explored it; an execution in which every runnable task sleeps is pruned
 * ({@link kmodel.kernel.sched.Strategy#PRUNE}). Data choices are explored exhaustively.
 *
 * <h2>Order</h2>
 * At a new decision the task that can go on running is taken first, then the lowest-numbered
 * runnable one: the first execution is the same as plain DFS's, and counterexamples prefer few
 * preemptions (which is not a guarantee: the iterative preemption-bounded search still gives the
 * fewest).
 *
 * <h2>Limits</h2>
 * No preemption bound: combining DPOR with a bound soundly needs the conservative backtrack points
 * of Coons, Musuvathi and McKinley (OOPSLA 2013), not done yet; with a bound the explorer uses
 * plain DFS. Reads are not told apart from writes, so two reads of one object are still ordered
 * both ways.
 */
public final class DporStrategy implements ExplorationStrategy {
    private static final int TASK = 0;
    private static final int VALUE = 1;
    private static final long[] NONE = new long[0];

    /** One decision of the current path: which task steps next, or a data choice. */
    private static final class Node {
        final int kind;
        /** TASK: the runnable tasks, ascending. VALUE: null. */
        final int[] enabled;
        /** VALUE: the number of alternatives. */
        final int values;
        int chosen;
        /** TASK: tasks to explore from here; {@code done}: those explored (or under way). */
        final BitSet backtrack = new BitSet();
        final BitSet done = new BitSet();
        /** TASK: the sleep set on entry: tasks, and the footprints of their next steps. */
        final int[] sleepTasks;
        final long[][] sleepFootprints;
        /** TASK: the footprint of each explored task's step from here, by task id. */
        long[][] doneFootprints = new long[4][];

        Node(int[] enabled, int[] sleepTasks, long[][] sleepFootprints) {
            this.kind = TASK;
            this.enabled = enabled;
            this.values = 0;
            this.sleepTasks = sleepTasks;
            this.sleepFootprints = sleepFootprints;
        }

        Node(int values) {
            this.kind = VALUE;
            this.enabled = null;
            this.values = values;
            this.sleepTasks = null;
            this.sleepFootprints = null;
        }

        boolean asleep(int task) {
            for (int s : sleepTasks) {
                if (s == task) {
                    return true;
                }
            }
            return false;
        }

        boolean isEnabled(int task) {
            return Arrays.binarySearch(enabled, task) >= 0;
        }

        void setDoneFootprint(int task, long[] fp) {
            if (task >= doneFootprints.length) {
                doneFootprints = Arrays.copyOf(doneFootprints, Math.max(task + 1, doneFootprints.length * 2));
            }
            doneFootprints[task] = union(doneFootprints[task], fp);
        }

        /**
         * A step that makes data choices has one footprint per choice: a task asleep because of
         * it must wake on any of them, so the footprints recorded over executions are merged.
         */
        private static long[] union(long[] old, long[] fp) {
            if (old == null || old == fp) {
                return fp;
            }
            long[] out = null;
            int n = old.length;
            for (long x : fp) {
                boolean found = false;
                for (int i = 0; i < old.length && !found; i++) {
                    found = old[i] == x;
                }
                if (!found) {
                    if (out == null) {
                        out = Arrays.copyOf(old, old.length + fp.length);
                    }
                    out[n++] = x;
                }
            }
            return out == null ? old : Arrays.copyOf(out, n);
        }
    }

    private final ArrayList<Node> stack = new ArrayList<>();
    private final Schedule schedule = new Schedule();
    private int depth;
    /** Stack index of the TASK node whose choice is the step now running. */
    private int stepNode = -1;

    // The current execution's steps (events) and their happens-before.
    private int[] evTask = new int[256];
    private int[] evLocal = new int[256];
    private int[] evNode = new int[256];
    private int[][] evClock = new int[256][];
    private long[][] evFootprint = new long[256][];
    private int events;
    private int[] taskLast = new int[16];
    /** Per object (by uid), the steps of this execution that accessed it last. */
    private final HashMap<Long, Access> lastAccess = new HashMap<>();
    private final ArrayList<Integer> candidates = new ArrayList<>();
    private final ArrayList<Integer> hbOnly = new ArrayList<>();
    private boolean[] raceFlags = new boolean[8];


    /** When set, every pair of steps is taken as independent: a broken search, for tests that must fail. */
    private final boolean blind;

    public DporStrategy() {
        this(false);
    }

    private DporStrategy(boolean blind) {
        this.blind = blind;
    }

    /**
     * A deliberately broken search that treats every two steps as independent (no races, no
     * backtracking): it must miss outcomes, which the equivalence tests show.
     */
    public static DporStrategy blindForTesting() {
        return new DporStrategy(true);
    }

    @Override
    public boolean observesSteps() {
        return true;
    }

    @Override
    public void beginExecution() {
        depth = 0;
        stepNode = -1;
        schedule.clear();
        events = 0;
        Arrays.fill(taskLast, -1);
        lastAccess.clear();
    }

    @Override
    public int pickTask(int[] ids, int n, int current) {
        Node node;
        if (depth < stack.size()) {
            node = stack.get(depth);
            if (node.kind != TASK || node.enabled.length != n || !same(node.enabled, ids, n)) {
                throw new NondeterminismException(depth, "the runnable tasks differ from the earlier execution");
            }
        } else {
            node = newTaskNode(ids, n, current);
            if (node == null) {
                return PRUNE;
            }
            stack.add(node);
        }
        stepNode = depth;
        depth++;
        if (n > 1) {
            schedule.add(node.chosen);
        }
        return node.chosen;
    }

    private static boolean same(int[] a, int[] ids, int n) {
        for (int i = 0; i < n; i++) {
            if (a[i] != ids[i]) {
                return false;
            }
        }
        return true;
    }

    /** A fresh decision: its sleep set comes from the step before it; null when all runnable tasks sleep. */
    private Node newTaskNode(int[] ids, int n, int current) {
        int[] sleepTasks = new int[0];
        long[][] sleepFps = new long[0][];
        if (events > 0) {
            Node prev = stack.get(evNode[events - 1]);
            long[] fp = evFootprint[events - 1];
            int prevTask = evTask[events - 1];
            int[] st = new int[prev.sleepTasks.length + prev.enabled.length];
            long[][] sf = new long[st.length][];
            int k = 0;
            for (int i = 0; i < prev.sleepTasks.length; i++) {
                if (prev.sleepTasks[i] != prevTask && independent(prev.sleepFootprints[i], fp)) {
                    st[k] = prev.sleepTasks[i];
                    sf[k++] = prev.sleepFootprints[i];
                }
            }
            for (int t = prev.done.nextSetBit(0); t >= 0; t = prev.done.nextSetBit(t + 1)) {
                if (t != prevTask && t < prev.doneFootprints.length && prev.doneFootprints[t] != null
                        && independent(prev.doneFootprints[t], fp)) {
                    st[k] = t;
                    sf[k++] = prev.doneFootprints[t];
                }
            }
            sleepTasks = Arrays.copyOf(st, k);
            sleepFps = Arrays.copyOf(sf, k);
        }
        int[] enabled = Arrays.copyOf(ids, n);
        Node node = new Node(enabled, sleepTasks, sleepFps);
        int pick = -1;
        if (current >= 0 && !node.asleep(current)) {
            pick = current;
        } else {
            for (int i = 0; i < n; i++) {
                if (!node.asleep(ids[i])) {
                    pick = ids[i];
                    break;
                }
            }
        }
        if (pick < 0) {
            return null;
        }
        node.chosen = pick;
        node.backtrack.set(pick);
        node.done.set(pick);
        return node;
    }

    private static final int WRITE = 0;
    private static final int READ = 1;
    private static final int ACQUIRE = 2;

    /** Footprint entries are {@code uid << 2 | kind}: dependent when one object is shared and not both read it. */
    private static boolean independent(long[] a, long[] b) {
        for (long x : a) {
            for (long y : b) {
                if (x >> 2 == y >> 2 && ((x & 3) != READ || (y & 3) != READ)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Per object, in this execution: its last write (or acquire), last acquire, and the reads since the last write. */
    private static final class Access {
        int lastWrite = -1;
        int lastAcquire = -1;
        int[] reads = new int[4];
        int nReads;

        void addRead(int e) {
            if (nReads == reads.length) {
                reads = Arrays.copyOf(reads, nReads * 2);
            }
            reads[nReads++] = e;
        }
    }

    @Override
    public int pickValue(int n) {
        Node node;
        if (depth < stack.size()) {
            node = stack.get(depth);
            if (node.kind != VALUE || node.values != n) {
                throw new NondeterminismException(depth, "a data choice differs from the earlier execution");
            }
        } else {
            node = new Node(n);
            stack.add(node);
        }
        depth++;
        schedule.add(node.chosen);
        return node.chosen;
    }

    @Override
    public void stepDone(int task, long[] footprint, int len) {
        long[] fp = len == 0 ? NONE : Arrays.copyOf(footprint, len);
        Node node = stack.get(stepNode);
        node.setDoneFootprint(task, fp);
        int k = events;
        grow(k + 1, task + 1);
        int prevOwn = taskLast[task];

        // Race candidates: the last step of another task on each object.
        candidates.clear();
        hbOnly.clear();
        for (long o : fp) {
            Access a = lastAccess.get(o >> 2);
            if (a == null) {
                continue;
            }
            int kind = (int) (o & 3);
            if (kind == ACQUIRE) {
                // The release before us orders us; the race is with the previous acquire.
                addCandidate(a.lastAcquire, task);
                if (a.lastWrite >= 0 && evTask[a.lastWrite] != task) {
                    hbOnly.add(a.lastWrite);
                }
            } else {
                addCandidate(a.lastWrite, task);
            }
            if (kind != READ) {
                for (int r = 0; r < a.nReads; r++) {
                    addCandidate(a.reads[r], task);
                }
            }
        }
        int width = Math.max(task + 1, prevOwn >= 0 ? evClock[prevOwn].length : 0);
        for (int c = 0; c < candidates.size(); c++) {
            width = Math.max(width, evClock[candidates.get(c)].length);
        }
        for (int c = 0; c < hbOnly.size(); c++) {
            width = Math.max(width, evClock[hbOnly.get(c)].length);
        }
        int[] clock = new int[width];
        if (prevOwn >= 0) {
            join(clock, evClock[prevOwn]);
        }
        // A candidate is a race unless it happens before the step through another one.
        int nc = candidates.size();
        if (raceFlags.length < nc) {
            raceFlags = new boolean[Math.max(nc, raceFlags.length * 2)];
        }
        for (int c = 0; c < nc; c++) {
            int j = candidates.get(c);
            boolean ordered = happensBefore(j, clock);
            for (int d = 0; d < nc && !ordered; d++) {
                if (d != c) {
                    ordered = happensBefore(j, evClock[candidates.get(d)]);
                }
            }
            raceFlags[c] = !ordered;
        }
        for (int c = 0; c < nc; c++) {
            join(clock, evClock[candidates.get(c)]);
        }
        for (int c = 0; c < hbOnly.size(); c++) {
            join(clock, evClock[hbOnly.get(c)]);
        }
        evTask[k] = task;
        evLocal[k] = prevOwn >= 0 ? evLocal[prevOwn] + 1 : 1;
        clock[task] = evLocal[k];
        evClock[k] = clock;
        evNode[k] = stepNode;
        evFootprint[k] = fp;
        events = k + 1;
        taskLast[task] = k;
        for (long o : fp) {
            Access a = lastAccess.get(o >> 2);
            if (a == null) {
                a = new Access();
                lastAccess.put(o >> 2, a);
            }
            if ((o & 3) == READ) {
                a.addRead(k);
            } else {
                a.lastWrite = k;
                a.nReads = 0;
                if ((o & 3) == ACQUIRE) {
                    a.lastAcquire = k;
                }
            }
        }
        for (int c = 0; c < nc && !blind; c++) {
            if (raceFlags[c]) {
                reverse(candidates.get(c), k);
            }
        }
    }

    private void addCandidate(int j, int task) {
        if (j >= 0 && evTask[j] != task && !candidates.contains(j)) {
            candidates.add(j);
        }
    }

    /** Whether step {@code j} happens before a step whose clock is {@code clock}. */
    private boolean happensBefore(int j, int[] clock) {
        int t = evTask[j];
        return t < clock.length && clock[t] >= evLocal[j];
    }

    private static void join(int[] into, int[] from) {
        for (int i = 0; i < from.length; i++) {
            if (from[i] > into[i]) {
                into[i] = from[i];
            }
        }
    }

    /**
     * Step {@code j} races with step {@code k}: make sure the state before {@code j} explores a
     * task that starts {@code notdep(j).k}, the sequence that runs {@code k} before {@code j}.
     */
    private void reverse(int j, int k) {
        Node node = stack.get(evNode[j]);
        int tj = evTask[j];
        // First local index, per task, of its steps in v = notdep(j).k, to test "some earlier step of
        // v happens before u" in one pass.
        int[] firstInV = new int[taskLast.length];
        int initials = 0;
        int chosenInitial = -1;
        boolean covered = false;
        for (int u = j + 1; u <= k; u++) {
            if (u < k && happensBefore(j, evClock[u])) {
                continue; // u happens after j: not in notdep(j)
            }
            int tu = evTask[u];
            boolean initial = firstInV[tu] == 0;
            int[] cu = evClock[u];
            for (int t = 0; t < firstInV.length && initial; t++) {
                if (firstInV[t] != 0 && t < cu.length && cu[t] >= firstInV[t]) {
                    initial = false;
                }
            }
            if (firstInV[tu] == 0) {
                firstInV[tu] = evLocal[u];
            }
            if (!initial || tu == tj || !node.isEnabled(tu)) {
                continue;
            }
            initials++;
            if (node.backtrack.get(tu) || node.asleep(tu)) {
                covered = true;
                break;
            }
            if (chosenInitial < 0 || tu == evTask[k]) {
                chosenInitial = tu;
            }
        }
        if (!covered && chosenInitial >= 0) {
            node.backtrack.set(chosenInitial);
        }
    }

    private void grow(int eventsNeeded, int tasksNeeded) {
        if (eventsNeeded > evTask.length) {
            int n = Math.max(eventsNeeded, evTask.length * 2);
            evTask = Arrays.copyOf(evTask, n);
            evLocal = Arrays.copyOf(evLocal, n);
            evNode = Arrays.copyOf(evNode, n);
            evClock = Arrays.copyOf(evClock, n);
            evFootprint = Arrays.copyOf(evFootprint, n);
        }
        if (tasksNeeded > taskLast.length) {
            int old = taskLast.length;
            taskLast = Arrays.copyOf(taskLast, Math.max(tasksNeeded, old * 2));
            Arrays.fill(taskLast, old, taskLast.length, -1);
        }
    }

    @Override
    public Schedule schedule() {
        return schedule;
    }

    @Override
    public boolean advance() {
        while (stack.size() > depth) {
            stack.remove(stack.size() - 1);
        }
        while (!stack.isEmpty()) {
            Node top = stack.get(stack.size() - 1);
            if (top.kind == VALUE) {
                if (top.chosen + 1 < top.values) {
                    top.chosen++;
                    return true;
                }
            } else {
                for (int t = top.backtrack.nextSetBit(0); t >= 0; t = top.backtrack.nextSetBit(t + 1)) {
                    if (!top.done.get(t) && !top.asleep(t)) {
                        top.chosen = t;
                        top.done.set(t);
                        return true;
                    }
                }
            }
            stack.remove(stack.size() - 1);
        }
        return false;
    }

    /**
     * The share of the search already done, estimated along the current path as if every subtree
     * were the same size: at each decision, the branches explored before the current one out of
     * those known so far (done, plus backtrack points not asleep). Backtrack points are added as
     * races are found, so the estimate is rough (ahead early, behind late); for a progress line only.
     */
    @Override
    public double explored() {
        if (stack.isEmpty()) {
            return 0; // before the first execution: nothing known yet
        }
        double done = 0;
        double weight = 1;
        int n = Math.min(stack.size(), 48);
        for (int d = 0; d < n; d++) {
            Node node = stack.get(d);
            int known;
            int before;
            if (node.kind == VALUE) {
                known = node.values;
                before = node.chosen;
            } else {
                before = node.done.cardinality() - 1;
                known = before + 1;
                for (int t = node.backtrack.nextSetBit(0); t >= 0; t = node.backtrack.nextSetBit(t + 1)) {
                    if (!node.done.get(t) && !node.asleep(t)) {
                        known++;
                    }
                }
            }
            done += weight * before / known;
            weight /= known;
        }
        return done;
    }

    /** "complete" once the search has finished; the model check says "unbounded" when its budget cut it. */
    @Override
    public String describe() {
        return "exhaustive, complete (source-DPOR with sleep sets)";
    }
}
