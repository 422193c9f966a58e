package kmodel.verification.harness;

import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.sched.FreeRunningRuntime;
import kmodel.verification.world.Scenario;

/**
 * Runs a registered {@link Scenario} once on real threads: the same world, tasks and end checks
 * the explorer checks, on a {@link FreeRunningRuntime} instead of the deterministic runtime. The
 * runtime boots the scenario (its setup and its tasks), runs every task on a thread of its own,
 * and then makes the end-of-run checks the deterministic runtime makes: the scenario's own, the
 * lifetime tracker's leak check, and at each task's exit that it holds no lock.
 *
 * <p>One run is one interleaving, whichever the JVM (or the checker that controls the threads:
 * Java PathFinder, Lincheck) picks. A missed wake-up is a task that never returns: the run then
 * never ends, which the checkers report as a deadlock ({@link FreeRunningRuntime} says what else a
 * free run cannot see). Uses only the JPF-safe subset, and never the bug catalog (Guava).
 */
public final class FreeRun {
    private FreeRun() {
    }

    /**
     * One free run of {@code scenario} under {@code config} laid over the scenario's own settings
     * (as {@code ModelCheck.config} does), data choices made by {@code chooser}; returns the first
     * violation, or null for a clean end.
     */
    public static Violation run(Scenario<?> scenario, Kconfig config, FreeRunningRuntime.Chooser chooser) {
        return run(scenario, config, chooser, FreeRunningRuntime.NO_POINTS);
    }

    /**
     * {@link #run(Scenario, Kconfig, FreeRunningRuntime.Chooser)} with {@code points} called at
     * every scheduling point of the model (Java PathFinder's choices: {@code Thread.yield()}).
     */
    public static Violation run(Scenario<?> scenario, Kconfig config, FreeRunningRuntime.Chooser chooser,
            FreeRunningRuntime.Points points) {
        FreeRunningRuntime rt = new FreeRunningRuntime(scenario.settings().overlay(config), chooser, points);
        return rt.execute(scenario.program());
    }

    /** {@link #run(Scenario, Kconfig, FreeRunningRuntime.Chooser)} with every data choice 0. */
    public static Violation run(Scenario<?> scenario, Kconfig config) {
        return run(scenario, config, FreeRunningRuntime.FIRST);
    }
}
