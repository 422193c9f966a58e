package kmodel.explorer.search;

import java.util.Arrays;

/**
 * PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte,
 * ASPLOS 2010): each task gets a random distinct priority, the highest-priority runnable task
 * always runs, and at {@code d - 1} random steps the running task's priority drops below all
 * others. A bug of depth {@code d} is found with probability at least {@code 1/(n k^(d-1))} per
 * execution, for {@code n} tasks and {@code k} steps. {@code k} is estimated from the previous
 * execution's length. Tasks created during a run get a random priority when first seen.
 */
public final class PctStrategy extends SeededStrategy {
    private final int depth;
    private int[] priority = new int[16];
    private boolean[] seen = new boolean[16];
    private int[] changePoints = new int[0];
    private int step;
    private int lastLength = 200;
    private int nextLow;

    public PctStrategy(long seed, int depth, long executions) {
        super(seed, executions);
        this.depth = Math.max(1, depth);
    }

    @Override
    public void beginExecution() {
        schedule.clear();
        Arrays.fill(seen, false);
        step = 0;
        nextLow = 0;
        changePoints = new int[depth - 1];
        for (int i = 0; i < changePoints.length; i++) {
            changePoints[i] = 1 + random.nextInt(Math.max(1, lastLength));
        }
        Arrays.sort(changePoints);
    }

    private void ensure(int id) {
        if (id >= priority.length) {
            int len = Math.max(id + 1, priority.length * 2);
            priority = Arrays.copyOf(priority, len);
            seen = Arrays.copyOf(seen, len);
        }
        if (!seen[id]) {
            seen[id] = true;
            // distinct high priorities, above every lowered one (lowered ones are <= 0)
            priority[id] = depth + 1 + random.nextInt(1 << 20);
        }
    }

    @Override
    public int pickTask(int[] ids, int n, int current) {
        step++;
        for (int i = 0; i < n; i++) {
            ensure(ids[i]);
        }
        if (current >= 0) {
            for (int cp : changePoints) {
                if (cp == step) {
                    priority[current] = -(nextLow++);
                }
            }
        }
        int best = ids[0];
        for (int i = 1; i < n; i++) {
            int id = ids[i];
            if (priority[id] > priority[best] || (priority[id] == priority[best] && id < best)) {
                best = id;
            }
        }
        schedule.add(best);
        return best;
    }

    @Override
    public boolean advance() {
        lastLength = Math.max(1, step);
        return super.advance();
    }

    @Override
    public String describe() {
        return "pct, depth " + depth + ", seed " + seed + ", " + executions + " executions";
    }
}
