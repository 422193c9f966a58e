package kmodel.jpf;

import gov.nasa.jpf.Config;
import gov.nasa.jpf.vm.AllRunnablesSyncPolicy;
import gov.nasa.jpf.vm.ElementInfo;
import gov.nasa.jpf.vm.ThreadInfo;

/**
 * JPF's scheduling at {@link JpfSettings.Granularity#PRIMITIVE}, in the host JVM: JPF switches
 * threads where the kmodel explorer does and nowhere else. The free-running runtime calls
 * {@code Thread.yield()} at each of the model's scheduling points ({@code FreeRunningRuntime.Points},
 * plugged in by {@link HarnessMain}): a choice among every runnable thread ({@code cg.break_yield}).
 * This policy makes none of JPF's other optional choices:
 *
 * <ul>
 *   <li>none before a free monitor is taken: the monitors of the model's primitives (a flags word,
 *       an atomic, a task's wake-up) come right after a scheduling point, which already was the
 *       choice; the runtime's own (the lifetime tracker, the task list, the end-of-run wait) are
 *       bookkeeping inside one step, where the explorer has no scheduling point either;</li>
 *   <li>none when a thread is started: the main thread starts every task before any runs, as
 *       the explorer's world has every task from the start (a task started later, by another
 *       task, is runnable from the next choice on);</li>
 *   <li>none after {@code notify}/{@code notifyAll} ({@code cg.break_notify=false} at this
 *       granularity) and after a monitor is released ({@code cg.break_lock_release=false}): the
 *       woken thread runs from the next choice on.</li>
 * </ul>
 *
 * Every choice that is not optional stays: a thread that must block (a monitor another thread
 * holds, {@code wait}, {@code join}, {@code park}) or that terminates lets JPF choose among the
 * runnable threads, so that deadlocks are still seen. Fields never are choices at this granularity
 * ({@code vm.shared.never_break_*}, {@link JpfSettings#PRIMITIVE_NEVER_BREAK}). A transition is
 * then exactly a step of the explorer: the code of one task from one scheduling point to the next
 * (sequential consistency between scheduling points, DESIGN.md).
 */
public class PointSyncPolicy extends AllRunnablesSyncPolicy {

    public PointSyncPolicy(Config config) {
        super(config);
    }

    @Override
    public boolean setsLockAcquisitionCG(ThreadInfo ti, ElementInfo ei) {
        return false;
    }

    @Override
    public boolean setsStartCG(ThreadInfo tiCurrent, ThreadInfo tiStarted) {
        return false;
    }
}
