package kmodel.kernel.sched;

import kmodel.kernel.Kernel;

/**
 * An object a step of a task can act on (a spinlock, a flags word, an atomic, a wait-queue head,
 * a tracked page or bio), named for partial-order reduction.
 *
 * <p>The name is {@code (creating task, how many objects that task had created before)}, given
 * by the runtime when a reducing strategy runs (0 otherwise). It is the same in every execution
 * in which the creating task has done the same things, whatever the other tasks did meanwhile,
 * so the footprints of steps recorded in one execution can be compared with those of another
 * (the sleep sets of {@code DporStrategy} need that). An object created lazily inside a shared
 * structure must also report an access to the structure, or two tasks creating it in different
 * executions would give it two names.
 */
public abstract class Footprinted {
    /** The object's name for the dependence relation; 0 when no reducing strategy named it. */
    public final long uid;

    protected Footprinted() {
        this.uid = Kernel.newUid();
    }
}
