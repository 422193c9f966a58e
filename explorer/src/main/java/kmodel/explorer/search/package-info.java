/**
 * The exploration algorithms, one small package (loom's layout): {@link
 * kmodel.explorer.search.DfsStrategy} (exhaustive DFS over choice points with a preemption
 * bound, iterated 0, 1, 2, ... by the explorer), {@link kmodel.explorer.search.PctStrategy}
 * (probabilistic, depth d), {@link kmodel.explorer.search.RandomStrategy} (seeded) and
 * {@link kmodel.explorer.search.ReplayStrategy} (a recorded schedule); and {@link
 * kmodel.explorer.search.Minimiser}, which makes a counterexample smaller (preemptions, then
 * context switches, then steps) before it is printed.
 *
 * <h2>Units</h2>
 * {@code DfsStrategy.prefix} and {@code DporStrategy.prefix} fix the first branching decisions,
 * so that a search explores one unit of a split exploration ({@code
 * kmodel.explorer.SplitExplorer}, {@code --jobs}, {@code --shard}); {@link
 * kmodel.explorer.search.UnitProbe} finds the units one decision at a time.
 *
 * <h2>Bounds</h2>
 * <ul>
 *   <li>preemption bound: default 2 ({@code --preemptions N}); 2-3 find nearly all bugs, each
 *       extra preemption multiplies the executions by roughly the run's length;</li>
 *   <li>step bound: default 20000 scheduling points per execution ({@code --set} is not needed:
 *       {@code ModelCheck.steps(n)}); a run that hits it is reported as hitting the bound, with
 *       the task that was still running (usually an unbounded retry loop without a sleep);</li>
 *   <li>execution budget: default 4,000,000 for exhaustive search (reported as not exhaustive when
 *       hit), and {@code --executions N} for random and PCT.</li>
 * </ul>
 *
 * <h2>Limitations</h2>
 * Partial-order reduction ({@link kmodel.explorer.search.DporStrategy}) is source-DPOR
 * with sleep sets unbounded and Coons et al.'s bounded POR without sleep sets under a bound;
 * neither is optimal (no wakeup trees). Plain DFS ({@code --reduction none}) and delay bounding
 * ({@link kmodel.explorer.search.DfsStrategy#delayBounded}) interleave independent steps both
 * ways.
 */
package kmodel.explorer.search;
