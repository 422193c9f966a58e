package kmodel.explorer.search;

import java.util.Arrays;
import kmodel.kernel.sched.Strategy;

/**
 * Follows a fixed prefix of branching decisions, then reports the alternatives at the next one:
 * how a split exploration finds its units ({@code kmodel.explorer.SplitExplorer}), one level
 * of the tree at a time. After the prefix and the reported decision it takes the free option
 * (the task that can go on running, else the lowest-numbered runnable one; value 0), as plain DFS
 * and source-DPOR do first. It never observes steps, so the runtime asks it only at branching
 * decisions: two or more runnable tasks, or a data choice.
 */
public final class UnitProbe implements Strategy {
    private final int[] prefix;
    private int branches;
    private int preemptions;
    private int[] options;
    private int[] costs;
    private int prefixPreemptions;

    /** A probe that follows {@code prefix} (task ids and values, one per branching decision). */
    public UnitProbe(int[] prefix) {
        this.prefix = prefix.clone();
    }

    @Override
    public void beginExecution() {
        branches = 0;
        preemptions = 0;
        options = null;
        costs = null;
        prefixPreemptions = 0;
    }

    @Override
    public int pickTask(int[] ids, int n, int current) {
        int b = branches++;
        if (b < prefix.length) {
            int pick = prefix[b];
            if (Arrays.binarySearch(ids, 0, n, pick) < 0) {
                throw new NondeterminismException(b, "the unit prefix runs task " + pick + ", which is not runnable here");
            }
            if (current >= 0 && pick != current) {
                preemptions++;
            }
            return pick;
        }
        int free = current >= 0 ? current : ids[0];
        if (b == prefix.length) {
            options = new int[n];
            costs = new int[n];
            int k = 0;
            options[k++] = free;
            for (int i = 0; i < n; i++) {
                if (ids[i] != free) {
                    costs[k] = current >= 0 ? 1 : 0;
                    options[k++] = ids[i];
                }
            }
            prefixPreemptions = preemptions;
        }
        return free;
    }

    @Override
    public int pickValue(int n) {
        int b = branches++;
        if (b < prefix.length) {
            if (prefix[b] < 0 || prefix[b] >= n) {
                throw new NondeterminismException(b, "the unit prefix takes value " + prefix[b] + " of a choice among " + n);
            }
            return prefix[b];
        }
        if (b == prefix.length) {
            options = new int[n];
            costs = new int[n];
            for (int i = 0; i < n; i++) {
                options[i] = i;
            }
            prefixPreemptions = preemptions;
        }
        return 0;
    }

    /**
     * The alternatives at the decision right after the prefix, in exploration order (the free
     * option first), or null when the execution ended before reaching one.
     */
    public int[] options() {
        return options;
    }

    /** The preemption each of {@link #options()} costs (1 for switching away from a task that could go on). */
    public int[] costs() {
        return costs;
    }

    /** Preemptions the prefix itself used. */
    public int prefixPreemptions() {
        return prefixPreemptions;
    }
}
