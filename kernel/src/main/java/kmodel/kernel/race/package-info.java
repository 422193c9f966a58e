/**
 * Data races (tools/memory-model's rule; KCSAN's report): a plain access that conflicts with
 * another access (one of them a write) and is not ordered with it by happens-before. {@link
 * HappensBefore} keeps one vector clock per task for an execution; spinlock release and
 * acquisition carry clocks; {@code kmodel.kernel.atomic.Plain} checks each plain access against
 * the last write and the reads since.
 */
package kmodel.kernel.race;
