/**
 * tools/memory-model (the LKMM), as an operational approximation that a stateless search can
 * drive: per location a modification order of stores ({@link LkmmMemory}), per task a view
 * ({@link LkmmTask}), stores carrying the view they release ({@link Message}), and the kernel's
 * ordering vocabulary as operations ({@link Order}, {@link Fence}).
 *
 * <p>The search (the litmus runner today, the model's {@code Shared} accesses under
 * {@code --memory-model lkmm} later) asks which stores a load may read and where a store may go in
 * its location's modification order, and picks one; this package only says what is allowed and
 * updates the views. What it does not explore: a load reads only a store already executed, so
 * load buffering (LB) and out-of-thin-air shapes never occur (as in loom); several fences are
 * stronger than the LKMM's (see {@link Fence}), which can hide an outcome the LKMM allows but
 * never produces one it forbids.
 */
package kmodel.kernel.lkmm;
