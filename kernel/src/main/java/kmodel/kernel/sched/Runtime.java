package kmodel.kernel.sched;

import kmodel.kernel.Kconfig;
import kmodel.kernel.lifetime.Lifetimes;
import kmodel.kernel.locking.Spinlock;

/**
 * What a runtime provides to the primitives. Two implementations share it:
 * {@link DeterministicRuntime} (one task at a time, every primitive a choice point, driven by a
 * {@link Strategy}) and {@link FreeRunningRuntime} (real threads, real synchronisation; for JPF
 * and Lincheck, which explore interleavings themselves).
 *
 * <p>The primitives ({@code Sched}, {@code Spinlock}, {@code Bitops}, {@code Wait}, ...) call
 * {@link #point} right before their atomic action; between two points a task's actions are
 * invisible to the others. The atomic action itself is done inside {@code synchronized} on the
 * object, so that the free-running runtime is atomic too; under the deterministic runtime the
 * monitor is never contended.
 */
public interface Runtime {
    /** The running task. */
    Task current();

    /** The configuration of this execution. */
    Kconfig config();

    /** The lifetime tracker of this execution. */
    Lifetimes lifetimes();

    /**
     * A scheduling point before an atomic primitive: the strategy may run another task first.
     *
     * @param what the primitive, e.g. "test_and_set_bit" (for detailed traces)
     * @param obj the object it acts on (its {@code toString()} is traced), or null
     */
    void point(String what, Object obj);

    /**
     * A scheduling point before a primitive that only reads {@code obj} ({@code test_bit},
     * {@code atomic_read}, {@code READ_ONCE}, a lockless list peek): two reads of one object
     * commute, which partial-order reduction uses. Otherwise the same as {@link #point}.
     */
    default void pointRead(String what, Object obj) {
        point(what, obj);
    }

    /**
     * One iteration of a loop inside a primitive ({@code __wake_up_common()}'s walk,
     * {@code task_work_run()}'s list, a list walk): not a scheduling point, but counted against
     * the step bound, so that a loop that never ends (a corrupted, cyclic list) stops the
     * execution as a reported step bound that names the looping task, instead of hanging.
     *
     * @param what the loop, for the step-bound report
     */
    default void loopStep(String what) {
    }

    /**
     * A scheduling point at the top of a busy-wait round that follows a fruitless one (a round
     * that found nothing and changed nothing: liburing re-entering {@code io_uring_enter()} while
     * a completion is filled but not yet committed). Not a kernel function: the model's fairness
     * rule. The deterministic runtime leaves the running task out of this one decision when
     * another task is runnable, so that a poller cannot be run again and again while the task
     * that would end its poll is never run (see {@link DeterministicRuntime#spinYield}); a caller
     * must only call it after a round that was a no-op, or the rule could hide interleavings.
     *
     * @param what the loop, for detailed traces
     */
    default void spinYield(String what) {
        point(what, null);
    }

    /**
     * kernel/sched/core.c: the dequeue half of {@code __schedule()}: the current task, whose
     * state is not TASK_RUNNING and which has no pending signal its state admits, leaves the
     * run queue and returns once {@link #tryToWakeUp} made it runnable and it was picked.
     */
    void block();

    /**
     * kernel/sched/core.c: {@code try_to_wake_up()}: if {@code p->state & mask}, set it to
     * TASK_RUNNING and make it runnable. One atomic step.
     */
    boolean tryToWakeUp(Task p, int mask);

    /** Takes {@code lock}, spinning (not runnable) while another task holds it. */
    void spinLock(Spinlock lock);

    /** Releases {@code lock}. */
    void spinUnlock(Spinlock lock);

    /**
     * The running task executes the CPU barrier {@code f} (include/asm-generic/barrier.h) in the
     * kernel function {@code site} ({@link kmodel.kernel.atomic.Barriers}). Not a scheduling
     * point. Nothing under sequential consistency (the default); under {@code --memory-model lkmm}
     * the deterministic runtime applies it to the task's view ({@code LkmmMemory.fence}).
     */
    default void fence(kmodel.kernel.lkmm.Fence f, String site) {
    }

    // ---------------------------------------------------------------- memory model
    // Under sequential consistency (the default) every method below returns the latest value it
    // is given and does nothing else. Under --memory-model lkmm the deterministic runtime keeps,
    // per execution, an LkmmMemory with one location per tracked object (by identity): the
    // primitives (Shared, AtomicT, RefcountT, Bitops, Plain, the locks) call these right after
    // their scheduling point, inside their atomic step, with the object's Java field, which always
    // holds the coherence-last store (stores go at the end of modification order).

    /**
     * A load of {@code loc}, whose latest store is {@code latest}, with ordering {@code o}: the
     * value read. Under lkmm which store it reads is a data choice ({@link #choose}) among those
     * the task's view allows (option 0: the latest, as under SC).
     */
    default long loadLong(Object loc, long latest, kmodel.kernel.lkmm.Order o) {
        return latest;
    }

    /** {@link #loadLong} of a location holding references ({@code Shared<T>}, {@code Plain<T>}). */
    default Object loadRef(Object loc, Object latest, kmodel.kernel.lkmm.Order o) {
        return latest;
    }

    /** A store of {@code value} to {@code loc} (whose latest store was {@code old}) with ordering {@code o}. */
    default void storeLong(Object loc, long old, long value, kmodel.kernel.lkmm.Order o) {
    }

    /** {@link #storeLong} of a reference. */
    default void storeRef(Object loc, Object old, Object value, kmodel.kernel.lkmm.Order o) {
    }

    /**
     * A read-modify-write of {@code loc}: it read {@code old} (the latest store: RMWs are atomic)
     * and, when {@code success}, stored {@code value} right after it, with ordering {@code o}; a
     * conditional RMW that failed is a read only, unordered (Documentation/atomic_t.txt:
     * "RMW operations that are conditional are unordered on FAILURE").
     */
    default void rmwLong(Object loc, long old, long value, kmodel.kernel.lkmm.Order o, boolean success) {
    }

    /**
     * The running task acquired the sleeping lock {@code lock} (a mutex, an rw_semaphore): under
     * lkmm it takes in what the last release of {@code lock} released (ACQUIRE).
     */
    default void lockAcquired(Object lock) {
    }

    /** The running task released the sleeping lock {@code lock} (RELEASE). */
    default void lockReleased(Object lock) {
    }

    /** A data choice among {@code n} alternatives (0 when {@code n <= 1}). */
    int choose(int n, String why);

    /**
     * Creates a task in the running execution (an interrupt-context completion, an io-wq
     * worker). It becomes runnable at once.
     */
    Task spawn(String name, String column, boolean irq, boolean daemon, Runnable body);

    /**
     * Notes that the running step acts on {@code o} although no scheduling point named it (a
     * tracked object touched, freed or created, a task spawned), for partial-order reduction's
     * dependence relation. Free unless a reducing strategy runs.
     */
    default void access(Object o) {
    }

    /**
     * {@link #access} for a step that only reads {@code o}: a read commutes with another read of
     * {@code o}, not with a write (or an {@link #access}). Free unless a reducing strategy runs.
     */
    default void accessRead(Object o) {
    }

    /** A name for a new {@link Footprinted} object; 0 unless a reducing strategy runs. */
    default long newUid() {
        return 0;
    }

    /**
     * The running task did {@code units} of CPU {@code work} that no scheduling point stands for
     * (a page copied, a bio built): charged by a virtual-time simulation ({@link Timing}), free
     * otherwise.
     */
    default void work(Work work, long units) {
    }

    /**
     * The running task handed a request of {@code bytes} to {@code device}, completed by the
     * just-spawned interrupt task {@code irq}: a virtual-time simulation delays {@code irq} until
     * the device is done; otherwise nothing.
     */
    default void deviceIo(Task irq, Object device, long bytes, boolean write) {
    }

    /** The running task's virtual clock in nanoseconds under a simulation; 0 otherwise. */
    default long now() {
        return 0;
    }

    /** Whether events are being recorded (the counterexample replay). */
    boolean tracing();

    /** Records a model-level event of the current task. */
    void event(String text);
}
