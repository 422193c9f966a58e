package kmodel.kernel.sched;

/** What a runtime executes: a scenario's world, its tasks and its end-of-run checks. */
public interface Program {
    /**
     * Builds the world and creates the tasks with {@link Runtime#spawn}. Scheduling is off: no
     * task runs until boot returns, and primitives called here do not switch.
     */
    void boot(Runtime rt);

    /**
     * Runs after every task has exited (scheduling off): the scenario's own checks, which throw
     * {@code Violation}, and a one-line summary of the final state (for counting distinct
     * terminal outcomes).
     */
    String finish();
}
