package kmodel.explorer.search;

/**
 * Feeds back a recorded {@link Schedule}. A decision that does not fit the choice met (a task
 * that is not runnable there, or running out of decisions) means the token does not belong to
 * this model: {@link ReplayMismatchException}.
 */
public final class ReplayStrategy implements ExplorationStrategy {
    private final Schedule recorded;
    private final Schedule schedule = new Schedule();
    private int pos;

    public ReplayStrategy(Schedule recorded) {
        this.recorded = recorded;
    }

    @Override
    public void beginExecution() {
        pos = 0;
        schedule.clear();
    }

    @Override
    public int pickTask(int[] ids, int n, int current) {
        if (pos >= recorded.size()) {
            throw new ReplayMismatchException("the schedule ended at choice " + pos + " but the run went on");
        }
        int c = recorded.get(pos++);
        for (int i = 0; i < n; i++) {
            if (ids[i] == c) {
                schedule.add(c);
                return c;
            }
        }
        throw new ReplayMismatchException("at choice " + (pos - 1) + " task #" + c + " is not runnable");
    }

    @Override
    public int pickValue(int n) {
        if (pos >= recorded.size()) {
            throw new ReplayMismatchException("the schedule ended at choice " + pos + " but the run went on");
        }
        int v = recorded.get(pos++);
        if (v < 0 || v >= n) {
            throw new ReplayMismatchException("at choice " + (pos - 1) + " value " + v + " is out of range");
        }
        schedule.add(v);
        return v;
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
        return "replay";
    }
}
