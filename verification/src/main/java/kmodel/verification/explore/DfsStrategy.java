package kmodel.verification.explore;

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
        /** The task that could have gone on running (-1: none, or a data choice). */
        final int current;
        /** Preemptions on the path before this node. */
        final int preemptionsBefore;
        int chosen;

        Node(int kind, int[] options, int current, int preemptionsBefore) {
            this.kind = kind;
            this.options = options;
            this.current = current;
            this.preemptionsBefore = preemptionsBefore;
        }

        int cost(int i) {
            return kind == TASK && current >= 0 && options[i] != current ? 1 : 0;
        }
    }

    private final int bound;
    private final ArrayList<Node> stack = new ArrayList<>();
    private final Schedule schedule = new Schedule();
    private int depth;
    private int preemptions;
    private int maxPreemptionsSeen;

    public DfsStrategy(int preemptionBound) {
        this.bound = preemptionBound;
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
        depth = 0;
        preemptions = 0;
        schedule.clear();
    }

    @Override
    public int pickTask(int[] ids, int n, int current) {
        Node node;
        if (depth < stack.size()) {
            node = stack.get(depth);
            if (node.kind != TASK || node.options.length != n) {
                throw new NondeterminismException(depth, "the runnable tasks differ from the earlier execution");
            }
        } else {
            int[] opts = new int[n];
            int k = 0;
            if (current >= 0) {
                opts[k++] = current;
            }
            for (int i = 0; i < n; i++) {
                if (ids[i] != current) {
                    opts[k++] = ids[i];
                }
            }
            node = new Node(TASK, opts, current, preemptions);
            stack.add(node);
        }
        int chosen = node.options[node.chosen];
        preemptions += node.cost(node.chosen);
        maxPreemptionsSeen = Math.max(maxPreemptionsSeen, preemptions);
        depth++;
        schedule.add(chosen);
        return chosen;
    }

    @Override
    public int pickValue(int n) {
        Node node;
        if (depth < stack.size()) {
            node = stack.get(depth);
            if (node.kind != VALUE || node.options.length != n) {
                throw new NondeterminismException(depth, "a data choice differs from the earlier execution");
            }
        } else {
            int[] opts = new int[n];
            for (int i = 0; i < n; i++) {
                opts[i] = i;
            }
            node = new Node(VALUE, opts, -1, preemptions);
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
                    top.chosen = i;
                    return true;
                }
            }
            stack.remove(stack.size() - 1);
        }
        return false;
    }

    /**
     * The share of the tree within the bound already explored, estimated as if every subtree below
     * a choice point were the same size (Knuth's estimate along the current path): the subtrees
     * left of the path are done. As good as the tree is balanced; asked before the first execution
     * (nothing known yet) it says 0. Looks at the first {@value #ESTIMATE_DEPTH} choice
     * points only; below them the weights no longer show in a percentage.
     */
    @Override
    public double explored() {
        if (stack.isEmpty()) {
            return 0; // before the first execution: nothing known yet
        }
        double done = 0;
        double weight = 1;
        int n = Math.min(stack.size(), ESTIMATE_DEPTH);
        for (int d = 0; d < n; d++) {
            Node node = stack.get(d);
            int allowed = 0;
            int before = 0;
            for (int i = 0; i < node.options.length; i++) {
                if (node.preemptionsBefore + node.cost(i) <= bound) {
                    allowed++;
                    if (i < node.chosen) {
                        before++;
                    }
                }
            }
            done += weight * before / allowed;
            weight /= allowed;
        }
        return done;
    }

    private static final int ESTIMATE_DEPTH = 48;

    @Override
    public String describe() {
        return bound == Integer.MAX_VALUE ? "exhaustive, complete (plain DFS, no reduction)" : "exhaustive, preemption bound " + bound;
    }
}
