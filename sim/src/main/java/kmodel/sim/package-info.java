/**
 * The {@code sim} module: the same model code run as a performance simulation. A strategy for the
 * deterministic runtime, {@link kmodel.sim.VirtualTime}, gives every task a clock under a cost model
 * ({@link kmodel.sim.CostModel}, {@link kmodel.sim.DeviceProfile}); {@link kmodel.sim.Simulator}
 * runs the seeds' workloads ({@link kmodel.sim.SimPrograms}), {@link kmodel.sim.Reproduction}
 * reproduces the seeds' experiments and {@link kmodel.sim.Sensitivity} varies the cost model's
 * constants. It depends on the model modules and the runtime, not on the explorer or the scenarios;
 * the worlds it shares with the scenarios are in {@link kmodel.sim.world}.
 */
package kmodel.sim;
