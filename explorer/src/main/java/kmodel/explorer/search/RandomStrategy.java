package kmodel.explorer.search;

/**
 * Seeded random scheduling: at every choice point a uniformly random runnable task. Cheap and
 * surprisingly effective for shallow bugs; the same seed gives the same executions.
 */
public final class RandomStrategy extends SeededStrategy {

    public RandomStrategy(long seed, long executions) {
        super(seed, executions);
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
    public String describe() {
        return "random, seed " + seed + ", " + executions + " executions";
    }
}
