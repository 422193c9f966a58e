/**
 * The {@code explorer} module: the checker's engine, depending on the runtime ({@code kernel})
 * only, as loom is used. It explores the interleavings of a {@link kmodel.explorer.CheckTarget}
 * (a named, deterministic program written against the runtime): {@link kmodel.explorer.ModelCheck}
 * (exhaustive with or without partial-order reduction, PCT, random; replay through
 * {@link kmodel.explorer.Targets}), {@link kmodel.explorer.SplitExplorer} and
 * {@link kmodel.explorer.SplitRun} (split and sharded runs), {@link kmodel.explorer.CheckResult}.
 * Beneath it, the strategies ({@link kmodel.explorer.search}) and the counterexamples'
 * diagrams and replay tokens ({@link kmodel.explorer.trace}). It knows no scenario, catalog or
 * model subsystem: those are {@code verification}'s.
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>The partial-order reduction ({@code DporStrategy}) is not optimal (no wakeup trees), and
 *       with a preemption bound it runs without sleep sets, so many-task worlds still cost much
 *       at a bound.</li>
 * </ul>
 */
package kmodel.explorer;
