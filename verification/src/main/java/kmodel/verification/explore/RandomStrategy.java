package kmodel.verification.explore;

import java.util.SplittableRandom;

/**
 * Seeded random scheduling: at every choice point a uniformly random runnable task. Cheap and
 * surprisingly effective for shallow bugs; the same seed gives the same executions.
 */
public final class RandomStrategy implements ExplorationStrategy {
    private final SplittableRandom random;
    private final long seed;
    private final long executions;
    private long done;
    private final Schedule schedule = new Schedule();

    public RandomStrategy(long seed, long executions) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.executions = executions;
    }

    @Override
    public void beginExecution() {
        schedule.clear();
    }

    @Override
    public int pickTask(int[] ids, int n, int current) {
        int c = ids[random.nextInt(n)];
        schedule.add(c);
        return c;
    }

    @Override
    public int pickValue(int n) {
        int v = random.nextInt(n);
        schedule.add(v);
        return v;
    }

    @Override
    public Schedule schedule() {
        return schedule;
    }

    @Override
    public boolean advance() {
        return ++done < executions;
    }

    @Override
    public String describe() {
        return "random, seed " + seed + ", " + executions + " executions";
    }
}
