package kmodel.verification;

import kmodel.explorer.ModelCheck;
import kmodel.explorer.Targets;
import kmodel.kernel.Kconfig;
import kmodel.verification.scenarios.BlockScenarios;
import kmodel.verification.scenarios.BtrfsScenarios;
import kmodel.verification.scenarios.FaultScenarios;
import kmodel.verification.scenarios.ManyTaskScenarios;
import kmodel.verification.scenarios.PageLockScenarios;
import kmodel.verification.scenarios.ReadScenarios;
import kmodel.verification.scenarios.SwarmScenarios;
import kmodel.verification.scenarios.TextbookScenarios;
import kmodel.verification.scenarios.UringScenarios;
import kmodel.verification.scenarios.WriteScenarios;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios by name, in registration order: every scenario of the project, and what replay tokens
 * may name ({@link Targets}). Built on demand: no static model state.
 */
public final class ScenarioRegistry extends ScenarioSet implements Targets {
    /** Every scenario of the project. */
    public static ScenarioRegistry standard() {
        ScenarioRegistry r = new ScenarioRegistry();
        TextbookScenarios.registerAll(r);
        PageLockScenarios.registerAll(r);
        ReadScenarios.registerAll(r);
        BlockScenarios.registerAll(r);
        BtrfsScenarios.registerAll(r);
        WriteScenarios.registerAll(r);
        UringScenarios.registerAll(r);
        return r;
    }

    /**
     * Scenarios that demonstrate findings of the model: they fail on the default configuration on
     * purpose, so {@code kmodel check} does not run them unless named with {@code --scenario}.
     */
    public static ScenarioRegistry findings() {
        ScenarioRegistry r = new ScenarioRegistry();
        PageLockScenarios.registerFindings(r);
        BlockScenarios.registerFindings(r);
        UringScenarios.registerFindings(r);
        ReadScenarios.registerFindings(r);
        return r;
    }

    /**
     * Scenarios too large for the default run: {@code kmodel check} runs them only when named.
     * The crowd (eight tasks), which partial-order reduction finishes with
     * {@code --preemptions unbounded}; and the five- and six-task worlds of killed lockers, checked
     * within a preemption bound (docs/findings/killed-locker-strands-waiter.md).
     */
    public static ScenarioRegistry large() {
        ScenarioRegistry r = new ScenarioRegistry();
        PageLockScenarios.registerLarge(r);
        ReadScenarios.registerLarge(r);
        BtrfsScenarios.registerLarge(r);
        WriteScenarios.registerLarge(r);
        BlockScenarios.registerLarge(r);
        UringScenarios.registerLarge(r);
        FaultScenarios.registerLarge(r);
        return r;
    }

    /**
     * Demonstrations of the checker itself that end at the step bound on purpose (a livelock the
     * fairness rule must not hide): {@code kmodel check} runs them only when named.
     */
    public static ScenarioRegistry demos() {
        ScenarioRegistry r = new ScenarioRegistry();
        TextbookScenarios.registerDemos(r);
        return r;
    }

    /**
     * Many-task programs for the checker's default (8 to 12 tasks, each buggy program with its
     * correct twin, {@link ManyTaskScenarios}): {@code kmodel check} runs them only when named.
     */
    public static ScenarioRegistry manyTasks() {
        ScenarioRegistry r = new ScenarioRegistry();
        ManyTaskScenarios.registerAll(r);
        return r;
    }

    /**
     * {@link #standard()} plus {@link #findings()}, {@link #large()}, {@link #demos()} and {@link #manyTasks()}: what
     * {@code --scenario} and replay tokens may name.
     */
    public static ScenarioRegistry everything() {
        ScenarioRegistry r = standard();
        for (Scenario<?> s : findings().all()) {
            r.register(s);
        }
        for (Scenario<?> s : large().all()) {
            r.register(s);
        }
        for (Scenario<?> s : demos().all()) {
            r.register(s);
        }
        for (Scenario<?> s : manyTasks().all()) {
            r.register(s);
        }
        return r;
    }

    /**
     * The bound {@code ModelCheck.AUTO} falls back to for the scenario named {@code name}
     * ({@link Scenario#autoBound()}); {@code ModelCheck.AUTO_BOUND} for a name no registry holds
     * (a swarm recipe).
     */
    public static int autoBoundOf(String name) {
        Integer b = AutoBounds.BY_NAME.get(name);
        return b == null ? ModelCheck.AUTO_BOUND : b;
    }

    /** {@link #autoBoundOf}'s table, built once on first use (registries are built from code, the same every time). */
    private static final class AutoBounds {
        static final java.util.Map<String, Integer> BY_NAME = build();

        private static java.util.Map<String, Integer> build() {
            java.util.Map<String, Integer> m = new java.util.HashMap<>();
            for (Scenario<?> s : everything().all()) {
                m.put(s.name(), s.autoBound());
            }
            return java.util.Collections.unmodifiableMap(m);
        }
    }

    /** Registers {@code s}; names must be unique. */
    @Override
    public ScenarioRegistry register(Scenario<?> s) {
        super.register(s);
        return this;
    }

    /**
     * The scenario named {@code name}, or null. A name {@code swarm:<recipe>} is not registered but
     * built from its recipe ({@link SwarmScenarios}), so that swarm replay tokens and
     * {@code --scenario swarm:...} work; a bad recipe is an IllegalArgumentException with one line.
     */
    @Override
    public Scenario<?> find(String name) {
        Scenario<?> s = super.find(name);
        return s != null ? s : SwarmScenarios.fromName(name);
    }

    /** A replay token's configuration: {@link KconfigTable#parseCanonical}. */
    @Override
    public Kconfig parseConfig(String canonical) {
        return KconfigTable.parseCanonical(canonical);
    }
}
