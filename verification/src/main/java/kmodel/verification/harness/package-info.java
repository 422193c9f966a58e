/**
 * Free-running harnesses: registered scenarios run once on real threads
 * ({@link kmodel.kernel.sched.FreeRunningRuntime}), for checkers that control the threads and
 * explore their interleavings themselves: Java PathFinder ({@code mvn -Pjpf verify}) and Lincheck
 * (its own Surefire execution of {@code mvn verify}). {@link kmodel.verification.harness.Harnesses}
 * lists them; {@link kmodel.verification.harness.FreeRun} runs any scenario.
 *
 * <p>Everything these classes load at run time (this package, {@code Scenario} and
 * {@code ScenarioSet}, the scenarios, the worlds of {@code kmodel.sim.world} and the model) keeps to the JPF-safe subset
 * ({@code ModelRulesArchTest}): no records, streams, Guava, {@code String.join}, or
 * {@code java.util.concurrent} beyond {@code AtomicInteger} and {@code LockSupport}; lambdas and
 * {@code java.util.function} are fine. The bug catalog is not loaded: each harness carries its
 * bugs' settings as plain data.
 *
 * <h2>Limitations</h2>
 * A free run is one interleaving; a missed wake-up is a run that never ends (a deadlock to the
 * checkers, a hang on plain threads). Only deterministic outcomes are unit-tested on plain threads
 * (a single task, a bug every interleaving hits).
 */
package kmodel.verification.harness;
