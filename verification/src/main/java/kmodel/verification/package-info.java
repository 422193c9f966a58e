/**
 * The {@code verification} module ({@code tools/testing} in spirit): scenarios
 * ({@link kmodel.verification.Scenario}, {@link kmodel.verification.ScenarioRegistry}), the
 * explorer ({@link kmodel.verification.ModelCheck} over the strategies in
 * {@link kmodel.verification.explore}), the bug catalog ({@link kmodel.verification.catalog}),
 * counterexample diagrams and replay tokens ({@link kmodel.verification.trace}).
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>Exhaustive means "every execution with at most N preemptions", not every execution.</li>
 *   <li>No partial-order reduction: counts include many equivalent interleavings.</li>
 *   <li>JPF and Lincheck harnesses over the free-running runtime are not written yet.</li>
 * </ul>
 */
package kmodel.verification;
