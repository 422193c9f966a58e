/**
 * The {@code verification} module ({@code tools/testing} in spirit): scenarios
 * ({@link kmodel.verification.world.Scenario}, {@link kmodel.verification.ScenarioRegistry}), the
 * explorer ({@link kmodel.explorer.ModelCheck} over the strategies in
 * {@link kmodel.explorer.search}), the bug catalog ({@link kmodel.verification.catalog}),
 * counterexample diagrams and replay tokens ({@link kmodel.verification.trace}).
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>Exhaustive means "every execution with at most N preemptions" unless the line says
 *       {@code complete} (an unbounded reduced search that finished): most scenarios are proved
 *       within preemption bound 3 only.</li>
 *   <li>The partial-order reduction ({@code DporStrategy}) is not optimal (no wakeup trees), and
 *       with a preemption bound it runs without sleep sets, so many-task worlds still cost much
 *       at a bound.</li>
 *   <li>JPF and Lincheck harnesses over the free-running runtime are not written yet.</li>
 * </ul>
 */
package kmodel.verification;
