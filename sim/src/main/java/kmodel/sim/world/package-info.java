/**
 * Worlds shared by the simulation's workloads and the scenarios of {@code verification}: a block
 * device file read through the page cache ({@link kmodel.sim.world.ReadWorld}, with
 * {@link kmodel.sim.world.AsyncRetry}), an io_uring application on it
 * ({@link kmodel.sim.world.UringWorld}), a btrfs file read and written directly and buffered
 * ({@link kmodel.sim.world.BtrfsDioWorld}, {@link kmodel.sim.world.BtrfsReads}), and
 * {@link kmodel.sim.world.Texts}. The free-running harnesses load them, so they keep to the
 * JPF-safe subset ({@code ModelRulesArchTest}).
 */
package kmodel.sim.world;
