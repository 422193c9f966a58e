package kmodel.verification.harness;

import kmodel.kernel.Kconfig;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.FreeRunningRuntime;
import kmodel.verification.scenarios.PageLockScenarios;
import kmodel.verification.scenarios.TextbookScenarios;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * One free-running harness: a registered scenario under one base configuration, and the catalog
 * bugs it hosts, for checkers that explore the interleavings of real threads themselves (Java
 * PathFinder, Lincheck). {@link #run} is one free run ({@link FreeRun}).
 *
 * <p>Each hosted bug carries, as plain data, what the catalog says of it: the settings it implies
 * and the violation kind the explorer reports. The bug catalog itself is not loaded (it uses
 * Guava, which JPF does not run); {@code HarnessesTest} checks that the data equal the catalog's.
 */
public final class Harness {
    /** A catalog bug as a harness carries it: id, the kind the explorer reports, implied settings. */
    static final class Bug {
        final String id;
        final ViolationKind kind;
        final KconfigOption[] options;
        final long[] values;

        Bug(String id, ViolationKind kind, KconfigOption[] options, long[] values) {
            this.id = id;
            this.kind = kind;
            this.options = options;
            this.values = values;
        }
    }

    private final String name;
    private final String subsystem;
    private final String scenario;
    private final Kconfig base;
    private final Bug[] bugs;
    private final ViolationKind finding;

    Harness(String name, String subsystem, String scenario, Kconfig base, Bug[] bugs, ViolationKind finding) {
        this.name = name;
        this.subsystem = subsystem;
        this.scenario = scenario;
        this.base = base;
        this.bugs = bugs;
        this.finding = finding;
    }

    /** The harness's name, e.g. {@code textbook-waitqueue}, {@code page-lock-killable-v510-unfair}. */
    public String name() {
        return name;
    }

    /** The subsystem it checks: {@code textbook}, {@code page lock v5.10}, {@code async page wait}, {@code page wait v5.7}. */
    public String subsystem() {
        return subsystem;
    }

    /** The registered scenario it runs (the explorer's name for it). */
    public String scenarioName() {
        return scenario;
    }

    /**
     * The registered scenario it runs, built afresh from its group's registration (the textbook
     * or the page-lock scenarios) rather than from {@code ScenarioRegistry.everything()}: building
     * every scenario of the project inside a Lincheck test left Lincheck with no switch point to
     * explore (measured with Lincheck 3.7: three invocations, then "passed"; not understood).
     * {@code HarnessesTest} checks that it is the registered scenario of that name.
     */
    public Scenario<?> scenario() {
        ScenarioSet r = new ScenarioSet();
        if (subsystem.equals("textbook")) {
            TextbookScenarios.registerAll(r);
        } else {
            PageLockScenarios.registerAll(r);
        }
        return r.get(scenario);
    }

    /** The catalog ids this harness finds, in catalog order. */
    public String[] hostedBugs() {
        String[] ids = new String[bugs.length];
        for (int i = 0; i < bugs.length; i++) {
            ids[i] = bugs[i].id;
        }
        return ids;
    }

    /**
     * Whether a clean run fails on purpose: the model's v5.10 finding
     * ({@code finding-killed-locker-strands-waiter}) at the kernel's default unfairness budget.
     */
    public boolean isFinding() {
        return finding != null;
    }

    /**
     * The violation kind the explorer reports for {@code bugOrNull} on this harness: the catalog's
     * kind for a hosted bug, the finding's kind for a finding harness without a bug, null for a
     * correct harness without a bug. On the free-running runtime a {@code missed-wakeup} shows as
     * a hang ({@link #hangs}).
     */
    public ViolationKind expectedKind(String bugOrNull) {
        return bugOrNull == null ? finding : bug(bugOrNull).kind;
    }

    /**
     * Whether a failing run of {@code bugOrNull} never ends on real threads: a missed wake-up,
     * which Java PathFinder and Lincheck report as a deadlock.
     */
    public boolean hangs(String bugOrNull) {
        return expectedKind(bugOrNull) == ViolationKind.MISSED_WAKEUP;
    }

    /**
     * The configuration a run of {@code bugOrNull} uses, laid over the scenario's own settings
     * by the runner: the harness's base settings, then the bug's implied settings and the bug.
     */
    public Kconfig config(String bugOrNull) {
        Kconfig c = base;
        if (bugOrNull != null) {
            Bug b = bug(bugOrNull);
            for (int i = 0; i < b.options.length; i++) {
                c = c.with(b.options[i], b.values[i]);
            }
            c = c.withBug(b.id);
        }
        return c;
    }

    /** One free run on real threads, every data choice 0; null = a clean end. */
    public Violation run(String bugOrNull) {
        return run(bugOrNull, FreeRunningRuntime.FIRST);
    }

    /** One free run on real threads, data choices by {@code chooser}; null = a clean end. */
    public Violation run(String bugOrNull, FreeRunningRuntime.Chooser chooser) {
        return FreeRun.run(scenario(), config(bugOrNull), chooser);
    }

    /**
     * One free run on real threads, data choices by {@code chooser}, {@code points} called at every
     * scheduling point of the model; null = a clean end.
     */
    public Violation run(String bugOrNull, FreeRunningRuntime.Chooser chooser, FreeRunningRuntime.Points points) {
        return FreeRun.run(scenario(), config(bugOrNull), chooser, points);
    }

    Bug bug(String id) {
        for (Bug b : bugs) {
            if (b.id.equals(id)) {
                return b;
            }
        }
        throw new IllegalArgumentException("harness " + name + " hosts no bug '" + id + "'");
    }

    @Override
    public String toString() {
        return name;
    }
}
