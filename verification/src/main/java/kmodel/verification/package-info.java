/**
 * The {@code verification} module ({@code tools/testing} in spirit): the worlds the explorer
 * ({@code kmodel.explorer}) checks. Bottom up: the bug catalog ({@link kmodel.verification.catalog})
 * and the scenario abstraction ({@link kmodel.verification.world}: {@code Scenario}, which the
 * explorer checks as a {@code CheckTarget}, and {@code ScenarioSet}); the scenarios
 * ({@link kmodel.verification.scenarios}); and on top, this package and the free-running harnesses
 * ({@link kmodel.verification.harness}). Here: {@link kmodel.verification.ScenarioRegistry} (every
 * scenario by name, and what replay tokens may name), {@link kmodel.verification.KconfigTable}
 * (every option of every module, {@code --set} and {@code --bug}) and
 * {@link kmodel.verification.SwarmCheck}.
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>Exhaustive means "every execution with at most N preemptions" unless the line says
 *       {@code complete} (an unbounded reduced search that finished): most scenarios are proved
 *       within preemption bound 3 only.</li>
 * </ul>
 */
package kmodel.verification;
