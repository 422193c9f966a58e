/**
 * Counterexamples: {@link kmodel.explorer.trace.Diagram} draws an execution's events as one
 * column per task, and {@link kmodel.explorer.trace.ReplayToken} encodes scenario,
 * configuration and schedule, with a checksum, so that {@code kmodel replay} re-runs it exactly.
 */
package kmodel.explorer.trace;
