package kmodel.verification.explore;

import java.util.ArrayList;

/**
 * Exhaustive search with a delay bound (Emmi, Qadeer and Rakamaric, "Delay-bounded scheduling",
 * POPL 2011), by stateless re-execution, for comparison with the preemption bound.
 *
 * <h2>How it works</h2>
 * A deterministic round-robin scheduler runs the current task while it can run; when it blocks or
 * exits, the next runnable task after it in id order. A <em>delay</em> skips the task that
 * scheduler would pick for the next one in round-robin order; taking the {@code i}-th task after
 * the default costs {@code i} delays, wherever the decision is (a switch away from a running
 * task is one delay, like a preemption, and so is a different pick where the running task
 * blocked, which a preemption bound gives for free). With bound {@code d}, at most {@code d}
 * delays per execution. The number of executions is at most {@code (steps)^d}, independent of the
 * number of tasks: with many tasks that do not interact, bound 0 is one execution where a
 * preemption bound of 0 still runs every order in which tasks finish.
 *
 * <h2>Limits</h2>
 * Not combined with partial-order reduction; a pass is "within delay bound d", weaker than a pass
 * within the same preemption bound (every schedule with d delays has at most d preemptions, not
 * the other way round).
 */
public final class DelayBoundStrategy implements ExplorationStrategy {
    private static final int TASK = 0;
    private static final int VALUE = 1;

    /** One choice point: options in round-robin order from the default; option {@code i} costs {@code i} delays. */
    private static final class Node {
        final int kind;
        final int[] options;
        final int delaysBefore;
        int chosen;

        Node(int kind, int[] options, int delaysBefore) {
            this.kind = kind;
            this.options = options;
            this.delaysBefore = delaysBefore;
        }

        int cost(int i) {
            return kind == TASK ? i : 0;
        }
    }

    private final int bound;
    private final ArrayList<Node> stack = new ArrayList<>();
    private final Schedule schedule = new Schedule();
    private int depth;
    private int delays;
    /** The task picked last in this execution (-1: none yet): round-robin starts after it. */
    private int last;

    public DelayBoundStrategy(int delayBound) {
        if (delayBound < 0) {
            throw new IllegalArgumentException("negative delay bound " + delayBound);
        }
        this.bound = delayBound;
    }

    @Override
    public void beginExecution() {
        depth = 0;
        delays = 0;
        last = -1;
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
            node = new Node(TASK, roundRobin(ids, n, current >= 0 ? current : last, current >= 0), delays);
            stack.add(node);
        }
        int chosen = node.options[node.chosen];
        delays += node.cost(node.chosen);
        last = chosen;
        depth++;
        schedule.add(chosen);
        return chosen;
    }

    /**
     * The runnable tasks in the order the round-robin scheduler tries them: the running task
     * first if it may go on, then the tasks after {@code from} in id order, wrapping around.
     */
    private static int[] roundRobin(int[] ids, int n, int from, boolean fromFirst) {
        int[] opts = new int[n];
        int k = 0;
        int start = 0;
        while (start < n && ids[start] <= from) {
            start++;
        }
        if (fromFirst) {
            opts[k++] = from;
        }
        for (int i = 0; i < n; i++) {
            int t = ids[(start + i) % n];
            if (!(fromFirst && t == from)) {
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
            if (node.kind != VALUE || node.options.length != n) {
                throw new NondeterminismException(depth, "a data choice differs from the earlier execution");
            }
        } else {
            int[] opts = new int[n];
            for (int i = 0; i < n; i++) {
                opts[i] = i;
            }
            node = new Node(VALUE, opts, delays);
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
                if (top.delaysBefore + top.cost(i) <= bound) {
                    top.chosen = i;
                    return true;
                }
            }
            stack.remove(stack.size() - 1);
        }
        return false;
    }

    @Override
    public String describe() {
        return "exhaustive, delay bound " + bound;
    }
}
