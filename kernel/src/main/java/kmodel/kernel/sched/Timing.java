package kmodel.kernel.sched;

/**
 * The hooks of a virtual-time simulation: the {@link DeterministicRuntime} calls them when a task
 * reaches a scheduling point, reports {@link Work}, sleeps, is woken, is created, or starts a
 * device transfer, so that the simulation can advance each task's virtual clock from a cost
 * model. The runtime itself never looks at time: which task runs next is still the
 * {@link Strategy}'s choice (the simulation's strategy picks the task whose clock is earliest).
 * Checking runs have no timing ({@link DeterministicRuntime#setTiming} unset) and pay nothing.
 */
public interface Timing {
    /** A new execution starts (before boot). */
    void beginExecution();

    /** {@code t} reached the scheduling point {@code what} (the primitive it is about to do). */
    void point(Task t, String what);

    /** {@code t} did {@code units} of {@code work}. */
    void work(Task t, Work work, long units);

    /** {@code t} leaves the CPU in {@code schedule()} (a voluntary context switch). */
    void blocked(Task t);

    /** {@code waker} made the sleeping {@code p} runnable ({@code try_to_wake_up()}). */
    void woken(Task waker, Task p);

    /** {@code parent} (null at boot) created {@code child}. */
    void spawned(Task parent, Task child);

    /**
     * {@code submitter} handed a request of {@code bytes} to {@code device}, whose completion
     * interrupt is the task {@code irq} (just spawned): the simulation decides when the device
     * finishes it, and {@code irq} runs no earlier.
     */
    void deviceIo(Task submitter, Task irq, Object device, long bytes, boolean write);

    /**
     * {@code t} took the spinlock {@code lock}: it cannot have it before its last holder let it
     * go, so the simulation makes it spin (CPU time) until then.
     */
    void lockAcquired(Task t, Object lock);

    /** {@code t} released the spinlock {@code lock}. */
    void lockReleased(Task t, Object lock);

    /** {@code t}'s virtual clock in nanoseconds. */
    long now(Task t);
}
