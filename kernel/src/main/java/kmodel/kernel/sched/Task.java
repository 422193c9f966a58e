package kmodel.kernel.sched;

import kmodel.kernel.locking.Spinlock;

/**
 * include/linux/sched.h: {@code struct task_struct}, the parts the model needs.
 *
 * <p>Each task is backed by a Java thread, but the runtime lets exactly one run at a time.
 *
 * <h2>Fields and who may write them</h2>
 * <ul>
 *   <li>{@code state}: written by the task itself ({@code set_current_state}) and by wakers in
 *       {@code try_to_wake_up()} (only from a state the waker's mask matches, to
 *       {@code TASK_RUNNING}). In the kernel, {@code p->pi_lock} serialises wakers; here every
 *       write is one atomic runtime step.</li>
 *   <li>{@code taskWorks}: pushed by any task ({@code task_work_add}, cmpxchg in the kernel),
 *       drained only by the task itself ({@code task_work_run}).</li>
 *   <li>signals: set by the sender, read by the task.</li>
 * </ul>
 */
public final class Task {
    /** include/linux/sched.h: on a run queue or running. */
    public static final int TASK_RUNNING = 0x0000;
    /** Sleeping; woken by wake_up and by any signal. */
    public static final int TASK_INTERRUPTIBLE = 0x0001;
    /** Sleeping; woken only by an explicit wake-up. */
    public static final int TASK_UNINTERRUPTIBLE = 0x0002;
    /** Also woken by a fatal signal. */
    public static final int TASK_WAKEKILL = 0x0100;
    /** Uninterruptible, but a fatal signal (SIGKILL) wakes it. */
    public static final int TASK_KILLABLE = TASK_WAKEKILL | TASK_UNINTERRUPTIBLE;
    /** The mask wake_up() uses: both sleeping states. */
    public static final int TASK_NORMAL = TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE;

    /** include/linux/sched.h: getting shut down. */
    public static final int PF_EXITING = 0x00000004;
    /** include/linux/sched.h: {@code PF_IO_WORKER}: an io-wq worker ({@link #setIoWorker}). */
    public static final int PF_IO_WORKER = 0x00000010;

    /**
     * The scheduler's calls into io-wq for a {@code PF_IO_WORKER} task (kernel/sched/core.c:
     * {@code sched_submit_work()} and {@code sched_update_worker()} call fs/io-wq.c
     * {@code io_wq_worker_sleeping()} and {@code io_wq_worker_running()}); implemented by the
     * io-uring module, which the kernel module cannot see.
     */
    public interface IoWorkerHooks {
        /** fs/io-wq.c: {@code io_wq_worker_sleeping(tsk)}: the worker is about to sleep. */
        void ioWqWorkerSleeping(Task tsk);

        /** fs/io-wq.c: {@code io_wq_worker_running(tsk)}: the worker runs again. */
        void ioWqWorkerRunning(Task tsk);
    }

    /** Where the runtime has the task (not kernel state: the run queue's view). */
    enum RunState {
        /** Created, not yet started: runnable. */
        NEW,
        /** On the run queue. */
        RUNNABLE,
        /** Dequeued in schedule(): runnable again only after try_to_wake_up(). */
        SLEEPING,
        /** Spinning on a held spinlock: runnable once it is released. */
        SPINNING,
        /** Returned from its body. */
        EXITED
    }

    private final int id;
    private final String name;
    private final String column;
    private final boolean irq;
    private final boolean daemon;
    final Runnable body;

    /** {@code __state}; see the class comment for the write rules. */
    int state = TASK_RUNNING;
    /** {@code PF_*} flags; written only by the task itself. */
    int flags;
    /** A fatal signal (SIGKILL) is pending. */
    boolean fatalSignal;
    /** Some signal, or TWA_SIGNAL task_work, is pending ({@code TIF_SIGPENDING}). */
    boolean sigPending;
    /** {@code task_works}: LIFO list head; {@code worksExited} is the kernel's work_exited sentinel. */
    CallbackHead taskWorks;
    boolean worksExited;
    /** Spinlocks held (the preempt count's view); sleeping with it non-zero is a lock-leak. */
    int locksHeld;
    /**
     * Non-blocking sections the task is inside ({@link Sched#nowaitEnter}), and why the outermost
     * one was entered; sleeping while {@code nowaitDepth > 0} is {@code blocked-in-nowait}.
     * Model-only (the kernel has no such counter: IOCB_NOWAIT is a contract, not a check);
     * written only by the task itself.
     */
    int nowaitDepth;
    String nowaitWhy;
    /** The same for sections that must not start I/O ({@link Sched#noioEnter}, {@code IOCB_NOIO}). */
    int noioDepth;
    String noioWhy;
    /**
     * {@code plug}: the block layer's {@code struct blk_plug} of this task while it is plugged
     * ({@code kmodel.block.BlkPlug}; typed {@code Object} because the kernel module cannot see
     * the block module). Written and read only by the task itself.
     */
    private Object plug;
    /**
     * {@code nvcsw}: voluntary context switches, the sleeps in {@code schedule()} (what
     * {@code getrusage()} reports as {@code ru_nvcsw} and the seed 002 comparison counts).
     * Written only by the task itself.
     */
    long nvcsw;
    /** Task_work callbacks this task has run ({@code task_work_run()}). Written only by the task itself. */
    long taskWorkRuns;
    /** {@code kthread_data(tsk)} of an io-wq worker: its hooks; null for other tasks. Set by the task itself. */
    IoWorkerHooks ioWorker;
    /** What the task sleeps on, for missed-wakeup reports; set by the waiting primitive. */
    String waitingOn;
    /**
     * The lock the task sleeps to get (a page lock, a mutex, an rw_semaphore), for stuck-task
     * and deadlock reports; set with {@link #waitingOn} by the waiting primitive
     * ({@link Sched#waitingFor}), cleared when {@code schedule()} returns. Model-only.
     */
    LockHolders waitsFor;
    /**
     * Sleeping locks (mutexes, rw_semaphores) the task holds, in the order taken: lockdep's
     * {@code current->held_locks}, kept always (not only with {@code CONFIG_LOCKDEP}) so that
     * exiting with one held is a {@code lock-leak}. Written only by the task itself.
     */
    private final java.util.ArrayList<LockHolders> heldLocks = new java.util.ArrayList<>();

    // Runtime bookkeeping (owned by the runtime, not kernel state).
    RunState runState = RunState.NEW;
    Object spinningOn;
    /** The name of the object of the scheduling point the task waits at: its next step acts on it (0: none). */
    long pendingUid;
    /** Its views under {@code --memory-model lkmm} (null under SC): see {@link DeterministicRuntime}. */
    kmodel.kernel.lkmm.LkmmTask lkmm;
    /** Under lkmm: the objects it loaded since its last busy-wait yield ({@link DeterministicRuntime#spinYield}). */
    final java.util.ArrayList<Object> spinLoads = new java.util.ArrayList<>();
    /** The lock the task waits to take at its spin_lock point: not runnable while it is held. */
    Spinlock pendingLock;
    /** Objects this task created in this execution (names them: {@link Footprinted}). */
    int allocs;
    long steps;

    Task(int id, String name, String column, boolean irq, boolean daemon, Runnable body) {
        this.id = id;
        this.name = name;
        this.column = column;
        this.irq = irq;
        this.daemon = daemon;
        this.body = body;
    }

    /** Index of the task in its execution, in creation order. */
    public int id() {
        return id;
    }

    /** {@code comm}: the task's name, as shown in traces. */
    public String name() {
        return name;
    }

    /** Column of the counterexample diagram the task draws in (interrupt tasks share one). */
    public String column() {
        return column;
    }

    /** Whether the task runs in interrupt context (must not sleep). */
    public boolean inInterrupt() {
        return irq;
    }

    /** A daemon (an io-wq worker, say) may still sleep at quiescence without it being a missed wakeup. */
    public boolean daemon() {
        return daemon;
    }

    /** {@code READ_ONCE(p->__state)}. */
    public int state() {
        return state;
    }

    /**
     * {@code p->flags}, without a scheduling point (the task's own, or checks and tests: another
     * task reads them through {@link Sched#taskExiting}).
     */
    public int flags() {
        kmodel.kernel.Kernel.access(this);
        return flags;
    }

    /** Spinlocks this task holds. */
    public int locksHeld() {
        return locksHeld;
    }

    /** What the task sleeps on (for reports), or null. */
    public String waitingOn() {
        return waitingOn;
    }

    /** The lock the task sleeps to get, or null ({@link Sched#waitingFor}). */
    public LockHolders waitsFor() {
        return waitsFor;
    }

    /** Records that this task took a sleeping lock ({@code lock_acquire()} in lockdep). */
    public void lockAcquired(LockHolders lock) {
        heldLocks.add(lock);
        // a sleeping lock's acquisition is an ACQUIRE of what its last release released (lkmm)
        Runtime rt = kmodel.kernel.Kernel.rtOrNull();
        if (rt != null) {
            rt.lockAcquired(lock);
        }
    }

    /** Records that this task released {@code lock}; false if it did not hold it ({@code lock_release()}). */
    public boolean lockReleased(LockHolders lock) {
        for (int i = heldLocks.size() - 1; i >= 0; i--) {
            if (heldLocks.get(i) == lock) {
                heldLocks.remove(i);
                // a sleeping lock's release is a RELEASE (lkmm)
                Runtime rt = kmodel.kernel.Kernel.rtOrNull();
                if (rt != null) {
                    rt.lockReleased(lock);
                }
                return true;
            }
        }
        return false;
    }

    /** Whether this task holds the sleeping lock {@code lock}. */
    public boolean holdsLock(LockHolders lock) {
        return heldLocks.contains(lock);
    }

    /** Sleeping locks this task holds (mutexes, rw_semaphores), oldest first. */
    public java.util.List<LockHolders> heldLocks() {
        return java.util.Collections.unmodifiableList(heldLocks);
    }

    /** {@code current->plug} (block layer); only the task itself calls this. */
    public Object plug() {
        return plug;
    }

    /** Sets {@code current->plug} ({@code blk_start_plug()}/{@code blk_finish_plug()}). */
    public void setPlug(Object plug) {
        this.plug = plug;
    }

    /** {@code nvcsw}: the task's sleeps so far (checks, counters; no scheduling point). */
    public long nvcsw() {
        return nvcsw;
    }

    /** Task_work callbacks the task has run so far (checks, counters; no scheduling point). */
    public long taskWorkRuns() {
        return taskWorkRuns;
    }

    /**
     * fs/io-wq.c: {@code io_worker_start()}'s {@code current->flags |= PF_IO_WORKER} (with
     * {@code hooks}), or {@code io_worker_exit()}'s clearing (null). Only the task itself calls
     * this.
     */
    public void setIoWorker(IoWorkerHooks hooks) {
        this.ioWorker = hooks;
        if (hooks != null) {
            flags |= PF_IO_WORKER;
        } else {
            flags &= ~PF_IO_WORKER;
        }
    }

    /** Whether the task is inside a non-blocking section (checks and tests; no scheduling point). */
    public boolean inNowait() {
        return nowaitDepth > 0;
    }

    /** Whether the task has returned from its body. */
    public boolean exited() {
        return runState == RunState.EXITED;
    }

    /** Whether the task sleeps in schedule() right now. */
    public boolean sleeping() {
        return runState == RunState.SLEEPING;
    }

    /**
     * Whether a signal is pending, without a scheduling point (checks and tests only: model code
     * reads it through {@link Sched#signalPending}, a scheduling point of its own).
     */
    public boolean peekSignalPending() {
        kmodel.kernel.Kernel.access(this);
        return sigPending;
    }

    /**
     * Whether task_work is queued on this task, without a scheduling point (checks and tests
     * only: model code reads it through {@link Sched#taskWorkPending}).
     */
    public boolean hasTaskWork() {
        kmodel.kernel.Kernel.access(this);
        return taskWorks != null;
    }

    /** Scheduling points this task passed in the current execution. */
    public long steps() {
        return steps;
    }

    /** The name of {@code state}: its {@code TASK_*} constant in include/linux/sched.h (for reports). */
    public static String stateName(int state) {
        switch (state) {
            case TASK_RUNNING: return "TASK_RUNNING";
            case TASK_INTERRUPTIBLE: return "TASK_INTERRUPTIBLE";
            case TASK_UNINTERRUPTIBLE: return "TASK_UNINTERRUPTIBLE";
            case TASK_KILLABLE: return "TASK_KILLABLE";
            default: return "state 0x" + Integer.toHexString(state);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
