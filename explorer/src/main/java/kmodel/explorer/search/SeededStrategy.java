package kmodel.explorer.search;

import java.util.SplittableRandom;

/**
 * What the sampling strategies (random, PCT) share: a seeded source of randomness, a budget of
 * executions, random data choices, and the record of the current execution's decisions.
 */
abstract class SeededStrategy implements ExplorationStrategy {
    final SplittableRandom random;
    final long seed;
    final long executions;
    final Schedule schedule = new Schedule();
    private long done;

    SeededStrategy(long seed, long executions) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.executions = executions;
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
}
