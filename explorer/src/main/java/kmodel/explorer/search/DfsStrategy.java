package kmodel.explorer.search;

import java.util.ArrayList;

/**
 * Exhaustive depth-first search over scheduling choices with a preemption bound (CHESS's
 * iterative context bounding, Musuvathi and Qadeer, PLDI 2007), by stateless re-execution.
 *
 * <h2>How it works</h2>
 * Each execution re-runs the scenario from scratch. The strategy keeps the stack of choice points
 * met on the current path; at a choice point it first takes the "free" option (keep running the
 * current task, or the lowest-numbered runnable task when the current one blocked), then, on
 * later executions, each alternative in turn. Switching away from a task that could have gone on
 * running is a <em>preemption</em>; alternatives that would exceed the bound are not explored.
 * Data choices (which of several values) cost nothing.
 *
 * <h2>Why a preemption bound</h2>
 * Most concurrency bugs need very few preemptions (CHESS found nearly all of theirs with 2), while
 * the number of executions grows polynomially in the length of the run for a fixed bound and
 * exponentially without one. Bounds of 2-3 are the practical default (loom says the same).
 * Switches at blocking points are free, so every wake-up order is still explored.
 */
public final class DfsStrategy implements ExplorationStrategy {
    private static final int TASK = 0;
    private static final int VALUE = 1;

    /** One choice point of the current path. */
    private static final class Node {
        final int kind;
        /** Options in exploration order: the free option first. */
        final int[] options;
        /** How many alternatives there were (more than {@code options} on a node of a fixed prefix). */
        final int width;
        /** The task that could have gone on running (-1: none, or a data choice). */
        final int current;
        /** Preemptions (delays, for a delay bound) on the path before this node. */
        final int preemptionsBefore;
        /** Delay bounding: option {@code i} costs {@code i} delays. */
        final boolean delays;
        int chosen;
        // For the progress estimate only (explored()): executions below the alternatives done.
        /** Executions below the alternatives already finished, and how many those are. */
        long leavesDone;
        int childrenDone;
        /** Executions begun before the current alternative's first one. */
        long childStart;

        Node(int kind, int[] options, int width, int current, int preemptionsBefore, long childStart, boolean delays) {
            this.kind = kind;
            this.delays = delays;
            this.options = options;
            this.width = width;
            this.current = current;
            this.preemptionsBefore = preemptionsBefore;
            this.childStart = childStart;
        }

        /** The current alternative's subtree is finished after {@code executions} executions; its size. */
        long childDone(long executions) {
            long size = executions - childStart;
            leavesDone += size;
            childrenDone++;
            childStart = executions;
            return size;
        }

        int cost(int i) {
            if (kind != TASK) {
                return 0;
            }
            return delays ? i : current >= 0 && options[i] != current ? 1 : 0;
        }
    }

    private final int bound;
    private final ArrayList<Node> stack = new ArrayList<>();
    private final Schedule schedule = new Schedule();
    private int depth;
    private int preemptions;
    private int maxPreemptionsSeen;
    /** Decisions fixed at the first choice points ({@link #prefix}); empty: none. */
    private int[] prefix = new int[0];
    /** Executions begun. */
    private long executions;
    /**
     * For the progress estimate: the sizes (executions) of the subtrees finished so far, by the
     * depth of their root and the preemptions left in them (capped at {@value #BUDGET_CLASSES} - 1):
     * {@code finished[depth][2 * left]} their total, {@code [2 * left + 1]} their number.
     */
    private final ArrayList<long[]> finished = new ArrayList<>();
    private static final int BUDGET_CLASSES = 8;

    /** Delay bounding instead of preemption bounding ({@link #delayBounded}). */
    private final boolean delays;
    /** Delay bounding: the task picked at the last choice of this execution (-1: none yet). */
    private int last = -1;

    public DfsStrategy(int preemptionBound) {
        this(preemptionBound, false);
    }

    private DfsStrategy(int bound, boolean delays) {
        this.bound = bound;
        this.delays = delays;
    }

    /**
     * Exhaustive search with a delay bound instead of a preemption bound (Emmi, Qadeer and
     * Rakamaric, "Delay-bounded scheduling", POPL 2011), for comparison. A deterministic
     * round-robin scheduler runs the current task while it can run; when it blocks or exits, the
     * next runnable task after it in id order. A <em>delay</em> skips the task that scheduler would
     * pick for the next one in round-robin order, so the {@code i}-th option costs {@code i}
     * delays wherever the decision is (a different pick where the running task blocked costs a
     * delay, where a preemption bound gives it for free). With bound {@code d}, at most {@code d}
     * delays per execution: the number of executions does not grow with the number of tasks, and
     * with many tasks that do not interact bound 0 is one schedule where preemption bound 0 still
     * runs every order in which they finish.
     *
     * <p>Limits: a pass is only "within delay bound d" (a schedule with {@code d} delays has at
     * most {@code d} preemptions, not the other way round); no reduction, no {@link #prefix}. The
     * runtime reports only real choices to this strategy, so the round-robin order starts after
     * the task picked at the last choice: still one deterministic default schedule, which is all
     * the bound needs.
     */
    public static DfsStrategy delayBounded(int delayBound) {
        if (delayBound < 0) {
            throw new IllegalArgumentException("negative delay bound " + delayBound);
        }
        return new DfsStrategy(delayBound, true);
    }

    /**
     * Fixes the first {@code decisions.length} choice points (every choice point of plain DFS is a
     * branching one): each takes the given task id or value, preemptions it costs included, and is
     * never backtracked into, so the search explores exactly the subtree below that prefix (one
     * unit of a split exploration, {@code kmodel.explorer.SplitExplorer}). The prefix must fit
     * the scenario and the bound; a task that is not runnable there is reported as nondeterminism.
     */
    public DfsStrategy prefix(int[] decisions) {
        if (delays) {
            throw new IllegalStateException("a delay-bounded search is not split");
        }
        this.prefix = decisions.clone();
        return this;
    }

    /** The option array of a fresh node: every alternative, or only the prefix's decision. */
    private int[] fixedOrAll(int[] all, int n) {
        if (depth >= prefix.length) {
            return all;
        }
        for (int i = 0; i < n; i++) {
            if (all[i] == prefix[depth]) {
                return new int[] {all[i]};
            }
        }
        throw new NondeterminismException(depth, "the fixed prefix takes " + prefix[depth] + ", which is not an option here");
    }

    /** Preemptions in the execution just run. */
    public int preemptions() {
        return preemptions;
    }

    /** The largest number of preemptions any explored execution used. */
    public int maxPreemptionsSeen() {
        return maxPreemptionsSeen;
    }

    @Override
    public void beginExecution() {
        executions++;
        depth = 0;
        preemptions = 0;
        last = -1;
        schedule.clear();
    }

    @Override
    public int pickTask(int[] ids, int n, int current) {
        Node node;
        if (depth < stack.size()) {
            node = stack.get(depth);
            if (node.kind != TASK || node.width != n) {
                throw new NondeterminismException(depth, "the runnable tasks differ from the earlier execution");
            }
        } else {
            int[] opts = order(ids, n, current, delays ? (current >= 0 ? current : last) : Integer.MIN_VALUE);
            node = new Node(TASK, fixedOrAll(opts, n), n, current, preemptions, executions - 1, delays);
            stack.add(node);
        }
        int chosen = node.options[node.chosen];
        last = chosen;
        preemptions += node.cost(node.chosen);
        maxPreemptionsSeen = Math.max(maxPreemptionsSeen, preemptions);
        depth++;
        schedule.add(chosen);
        return chosen;
    }

    /**
     * The runnable tasks in exploration order: {@code first} (the task that may go on running, if
     * any), then the others in id order starting after {@code after}, wrapping around. Plain DFS
     * starts from the lowest id; delay bounding's round robin from the running or last task.
     */
    private static int[] order(int[] ids, int n, int first, int after) {
        int[] opts = new int[n];
        int k = 0;
        if (first >= 0) {
            opts[k++] = first;
        }
        int start = 0;
        while (start < n && ids[start] <= after) {
            start++;
        }
        for (int i = 0; i < n; i++) {
            int t = ids[(start + i) % n];
            if (t != first) {
                opts[k++] = t;
            }
        }
        return opts;
    }

    @Override
    public int pickValue(int n) {
        Node node;
        if (depth < stack.size()) {
            node = stack.get(depth);
            if (node.kind != VALUE || node.width != n) {
                throw new NondeterminismException(depth, "a data choice differs from the earlier execution");
            }
        } else {
            int[] opts = new int[n];
            for (int i = 0; i < n; i++) {
                opts[i] = i;
            }
            node = new Node(VALUE, fixedOrAll(opts, n), n, -1, preemptions, executions - 1, false);
            stack.add(node);
        }
        depth++;
        int v = node.options[node.chosen];
        schedule.add(v);
        return v;
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
            for (int i = top.chosen + 1; i < top.options.length; i++) {
                if (top.preemptionsBefore + top.cost(i) <= bound) {
                    record(stack.size(), left(top, top.chosen), top.childDone(executions));
                    top.chosen = i;
                    return true;
                }
            }
            stack.remove(stack.size() - 1);
        }
        return false;
    }

    /**
     * The share of the tree within the bound already explored: the executions run over an
     * estimate of all of them. The estimate walks the current path from its deepest choice point
     * up. An alternative not explored yet is taken to be as large as the subtrees finished so far
     * whose root is at the same depth with as many preemptions left (under a preemption bound,
     * what a subtree may still do depends mostly on those two); failing that, as large as the
     * alternative under way (the one on the current path, at its own estimate) when it has as
     * many preemptions left, else as the finished subtrees nearest below with that many left.
     * Alternatives beyond the bound are not part of the tree. Exact on a balanced tree; a rough
     * guide otherwise, never used for a verdict. Asked before the first execution it says 0.
     */
    @Override
    public double explored() {
        if (stack.isEmpty()) {
            return 0;
        }
        double below = -1; // the estimate of the subtree under way below the node looked at
        for (int d = stack.size() - 1; d >= 0; d--) {
            Node node = stack.get(d);
            int leftNow = left(node, node.chosen);
            double current = below;
            if (current < 0) {
                // The deepest node: its current alternative has not run yet.
                current = typical(d + 1, leftNow, true);
                if (current < 0) {
                    current = node.childrenDone > 0 ? (double) node.leavesDone / node.childrenDone : 1;
                }
            }
            double rest = 0;
            for (int i = node.chosen + 1; i < node.options.length; i++) {
                if (node.preemptionsBefore + node.cost(i) <= bound) {
                    int left = left(node, i);
                    double t = typical(d + 1, left, left != leftNow);
                    rest += t >= 0 ? t : current;
                }
            }
            below = node.leavesDone + current + rest;
        }
        return Math.min(1.0, executions / below);
    }

    /** Preemptions left below {@code node}'s option {@code i}, as a budget class. */
    private int left(Node node, int i) {
        long left = (long) bound - node.preemptionsBefore - node.cost(i);
        return (int) Math.min(left, BUDGET_CLASSES - 1);
    }

    private void record(int depth, int left, long size) {
        while (finished.size() <= depth) {
            finished.add(new long[2 * BUDGET_CLASSES]);
        }
        long[] f = finished.get(depth);
        f[2 * left] += size;
        f[2 * left + 1]++;
    }

    /**
     * The average size of the finished subtrees rooted at {@code depth} with {@code left}
     * preemptions left, else (when {@code deeper}) at the nearest depth below with some; -1: none.
     */
    private double typical(int depth, int left, boolean deeper) {
        for (int d = depth; d < finished.size() && (d == depth || deeper); d++) {
            long[] f = finished.get(d);
            if (f[2 * left + 1] > 0) {
                return (double) f[2 * left] / f[2 * left + 1];
            }
        }
        return -1;
    }

    @Override
    public String describe() {
        if (delays) {
            return "exhaustive, delay bound " + bound;
        }
        return bound == Integer.MAX_VALUE ? "exhaustive, complete (plain DFS, no reduction)" : "exhaustive, preemption bound " + bound;
    }
}
