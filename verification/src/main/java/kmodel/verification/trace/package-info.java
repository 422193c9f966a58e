/**
 * Counterexamples: {@link kmodel.verification.trace.Diagram} draws an execution's events as one
 * column per task, and {@link kmodel.verification.trace.ReplayToken} encodes scenario,
 * configuration and schedule, with a checksum, so that {@code kmodel replay} re-runs it exactly.
 */
package kmodel.verification.trace;
