/**
 * The scenario abstraction: {@link kmodel.verification.world.Scenario}, a named world with its
 * tasks and end-of-run checks (the explorer checks it as a {@code kmodel.explorer.CheckTarget}),
 * and {@link kmodel.verification.world.ScenarioSet}, what a group of scenarios registers into.
 * The free-running harnesses load both, so they keep to the JPF-safe subset.
 */
package kmodel.verification.world;
