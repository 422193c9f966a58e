package kmodel.iouring;

import java.util.ArrayList;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.atomic.FlagsWord;
import kmodel.kernel.atomic.RefcountT;
import kmodel.kernel.atomic.Shared;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.Footprinted;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;

/**
 * fs/io-wq.c (v5.10): io_uring's worker pool. A request that cannot be done without blocking is
 * punted here ({@code io_wq_enqueue()}) and run in blocking mode by a worker task. Work is
 * bounded (regular files and block devices: at most {@code bounded} workers) or unbounded (may
 * wait forever, e.g. on a socket: limited by {@code RLIMIT_NPROC}). A manager task creates
 * workers on demand, and runs task_work that could not go to an exiting task (io_uring's
 * {@code io_wq_get_task()} fallback).
 *
 * <h2>How work finds a worker</h2>
 * <pre>
 *   io_wqe_enqueue()                         worker (io_wqe_worker)
 *   lock; append to work_list; unlock        set_current_state(TASK_INTERRUPTIBLE)
 *   if (!nr_running)                         lock; work_list empty? go on the free list; unlock
 *     a free worker? wake_up_process(it)     schedule()
 *     else below max_workers?
 *       wake_up_process(manager) -> create_io_worker()
 * </pre>
 * A worker counts as running ({@code acct->nr_running}) while it is not asleep: when it sleeps
 * inside its work (a page lock, a tag), the scheduler calls {@code io_wq_worker_sleeping()},
 * which wakes another worker (or has the manager create one) for the work still queued. So one
 * blocking read does not hold up the next: each concurrently blocked punted read costs a worker.
 *
 * <h2>Lock rules</h2>
 * <ul>
 *   <li>{@code wqe->lock} protects {@code work_list}, {@code wqe->flags}, the free list and the
 *       all list (written under it, read under RCU), {@code acct->nr_workers}.</li>
 *   <li>{@code acct->nr_running} and {@code user->processes} are atomics read without a lock.</li>
 *   <li>{@code worker->flags} is written by the worker itself (under {@code wqe->lock} where the
 *       kernel takes it); {@code worker->cur_work} is protected by {@code worker->lock}.</li>
 *   <li>A worker found on a list under RCU is used only after {@code io_worker_get()}
 *       ({@code refcount_inc_not_zero(&worker->ref)}); {@code io_worker_exit()} waits for such
 *       users before it goes.</li>
 * </ul>
 *
 * <h2>Coarse parts</h2>
 * <ul>
 *   <li>One NUMA node ({@code wqes[0]}), no hashed work, no identity switch (mm, creds, files,
 *       fs), no {@code SIGINT} delivery to cancel running work (a running match is counted, as
 *       {@code IO_WQ_CANCEL_RUNNING}, and completes normally, which is what io_uring expects of
 *       buffered reads).</li>
 *   <li>No timers: {@code schedule_timeout()} is {@code schedule()}. So idle workers never time
 *       out and exit (they live until {@code io_wq_destroy()}), and the manager, whose
 *       {@code schedule_timeout(HZ)} is what brings it back when a wake-up came between its
 *       checks and its {@code set_current_state()}, instead re-tests its reasons to run (stop,
 *       task_work, a worker needed) after setting its state: the same effect, without timers.</li>
 *   <li>Allocation never fails, so {@code IO_WQ_BIT_ERROR} is never set.</li>
 * </ul>
 */
public final class IoWq {
    /** {@code enum io_wq_cancel}: {@code IO_WQ_CANCEL_OK}: cancelled before it started. */
    public static final int IO_WQ_CANCEL_OK = 0;
    /** {@code IO_WQ_CANCEL_RUNNING}: found running; signalled, completes normally. */
    public static final int IO_WQ_CANCEL_RUNNING = 1;
    /** {@code IO_WQ_CANCEL_NOTFOUND}: work not found. */
    public static final int IO_WQ_CANCEL_NOTFOUND = 2;

    /** {@code IO_WQ_BIT_EXIT}: wq exiting. */
    static final int IO_WQ_BIT_EXIT = 0;
    /** {@code IO_WQ_BIT_CANCEL}: cancel work on list. */
    static final int IO_WQ_BIT_CANCEL = 1;

    /** {@code IO_WQ_ACCT_BOUND}. */
    static final int IO_WQ_ACCT_BOUND = 0;
    /** {@code IO_WQ_ACCT_UNBOUND}. */
    static final int IO_WQ_ACCT_UNBOUND = 1;

    /** {@code IO_WORKER_F_UP}: up and active. */
    static final int IO_WORKER_F_UP = 1;
    /** {@code IO_WORKER_F_RUNNING}: account as running. */
    static final int IO_WORKER_F_RUNNING = 2;
    /** {@code IO_WORKER_F_FREE}: worker on free list. */
    static final int IO_WORKER_F_FREE = 4;
    /** {@code IO_WORKER_F_FIXED}: static idle worker. */
    static final int IO_WORKER_F_FIXED = 16;
    /** {@code IO_WORKER_F_BOUND}: is doing bounded work. */
    static final int IO_WORKER_F_BOUND = 32;

    /** {@code IO_WQE_FLAG_STALLED}: stalled on hash. */
    static final int IO_WQE_FLAG_STALLED = 1;

    /** fs/io-wq.h: {@code io_wq_work_fn}: runs the work; returns linked work to run next, or null. */
    public interface DoWork {
        IoWqWork doWork(IoWqWork work);
    }

    /** fs/io-wq.h: {@code free_work_fn}: drops the work's reference once it has run. */
    public interface FreeWork {
        void freeWork(IoWqWork work);
    }

    /** fs/io-wq.h: {@code work_cancel_fn}: whether {@code work} is one to cancel. */
    public interface CancelFn {
        boolean match(IoWqWork work, Object data);
    }

    /**
     * An RCU-read list of workers ({@code free_list}, {@code all_list}): written under
     * {@code wqe->lock}, each write an access to the list for the reduction; read by
     * {@link #rcuRead} at a scheduling point of its own.
     */
    static final class WorkerList extends Footprinted {
        final ArrayList<IoWorker> workers = new ArrayList<>();
        private final String name;

        WorkerList(String name) {
            this.name = name;
        }

        /** {@code hlist_nulls_add_head_rcu()} / {@code list_add_tail_rcu()}: under {@code wqe->lock}. */
        void add(int index, IoWorker w) {
            Kernel.access(this);
            workers.add(index, w);
        }

        /** {@code hlist_nulls_del_rcu()} / {@code list_del_rcu()}: under {@code wqe->lock}. */
        void remove(IoWorker w) {
            Kernel.access(this);
            workers.remove(w);
        }

        /** An {@code rcu_dereference()} walk: a snapshot of the list at a scheduling point. */
        ArrayList<IoWorker> rcuRead(String what) {
            Kernel.rt().pointRead(what, this);
            return new ArrayList<>(workers);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** fs/io-wq.c: {@code struct io_wqe_acct}. */
    static final class Acct extends Footprinted {
        /**
         * {@code nr_workers}; protected by {@code wqe->lock}, but read without it by
         * {@code io_wqe_wake_worker()}: every access reports the account (the footprint audit
         * found the lockless read unordered with the writes).
         */
        int nrWorkers;
        /** {@code max_workers}; set at creation. */
        final int maxWorkers;
        /** {@code nr_running}. */
        final AtomicT nrRunning;

        Acct(String name, int maxWorkers) {
            this.maxWorkers = maxWorkers;
            this.nrRunning = new AtomicT(name + ".nr_running", 0);
        }
    }

    /** fs/io-wq.c: {@code struct io_wqe}, the per-node pool (one node in the model). */
    static final class Wqe {
        final Spinlock lock;
        /** {@code work_list}: head and tail; protected by {@link #lock}. */
        IoWqWork workHead;
        IoWqWork workTail;
        /** {@code flags}: {@code IO_WQE_FLAG_STALLED}; protected by {@link #lock}. */
        int flags;
        final Acct[] acct = new Acct[2];
        /** {@code free_list}: idle workers, newest first. */
        final WorkerList freeList;
        /** {@code all_list}. */
        final WorkerList allList;
        final IoWq wq;

        Wqe(IoWq wq, int bounded, int maxUnbound) {
            this.wq = wq;
            this.lock = new Spinlock(wq.name + ".wqe.lock");
            this.acct[IO_WQ_ACCT_BOUND] = new Acct(wq.name + ".acct[BOUND]", bounded);
            this.acct[IO_WQ_ACCT_UNBOUND] = new Acct(wq.name + ".acct[UNBOUND]", maxUnbound);
            this.freeList = new WorkerList(wq.name + ".free_list");
            this.allList = new WorkerList(wq.name + ".all_list");
        }
    }

    /** fs/io-wq.c: {@code struct io_worker}: one worker task. */
    static final class IoWorker implements Task.IoWorkerHooks {
        /** {@code ref}: 1 while the worker lives, plus brief {@code io_worker_get()} users. */
        final RefcountT ref;
        /** {@code flags}: {@code IO_WORKER_F_*}; see the class lock rules. */
        int flags;
        /** {@code task}. */
        Task task;
        final Wqe wqe;
        /** {@code cur_work}; protected by {@link #lock}. */
        IoWqWork curWork;
        final Spinlock lock;
        private final String name;

        IoWorker(Wqe wqe, String name) {
            this.wqe = wqe;
            this.name = name;
            this.ref = new RefcountT(name + ".ref", 1);
            this.lock = new Spinlock(name + ".lock");
        }

        @Override
        public void ioWqWorkerSleeping(Task tsk) {
            IoWq.ioWqWorkerSleeping(this);
        }

        @Override
        public void ioWqWorkerRunning(Task tsk) {
            IoWq.ioWqWorkerRunning(this);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    final String name;
    /** {@code state}: {@code IO_WQ_BIT_*}. */
    final FlagsWord state;
    final DoWork doWork;
    final FreeWork freeWork;
    /** {@code manager}: the manager task; set once by {@link #ioWqCreate}. */
    Task manager;
    /** {@code kthread_should_stop()} of the manager: set by {@code kthread_stop()}. */
    final Shared<Boolean> managerShouldStop;
    /** The manager's exit, which {@code kthread_stop()} waits for. */
    final Completion managerExited;
    /**
     * {@code refs}: one for the manager while it lives and one per worker (c4068bf898dd, "io-wq:
     * fix use-after-free in io_wq_worker_running", v5.10-rc1); whoever drops the last completes
     * {@link #done}. Bug {@code iowq-refs-per-node} puts back v5.9's count: one per node, dropped
     * by the worker that leaves its node with none.
     */
    final RefcountT refs;
    /** {@code done} before {@code reinit_completion()}: the manager has created the fixed workers. */
    final Completion started;
    /** {@code done} after it: every worker has exited. */
    final Completion done;
    /** {@code use_refs}: {@code io_wq_get()}/{@code io_wq_destroy()} users. */
    final RefcountT useRefs;
    /** {@code user->processes}: unbound workers of the ring's user. */
    final AtomicT processes;
    final Wqe wqe;

    /** Punts: works enqueued ({@code io_wq_enqueue()} calls). Counter, not kernel state. */
    public int punts;
    /** Workers created ({@code create_io_worker()}). Counter. */
    public int workersCreated;
    /** Works run by a worker ({@code do_work}). Counter. */
    public int worksRun;
    /** Works cancelled before they ran ({@code io_run_cancel()}). Counter. */
    public int worksCancelled;
    /** Every task the pool started (the manager, then each worker), for counting their context switches. */
    public final ArrayList<Task> tasks = new ArrayList<>();
    private int workerSeq;

    private IoWq(String name, int bounded, int maxUnbound, DoWork doWork, FreeWork freeWork) {
        this.name = name;
        this.state = new FlagsWord(name + ".state");
        this.doWork = doWork;
        this.freeWork = freeWork;
        this.managerShouldStop = new Shared<>(name + ".kthread_should_stop", false);
        this.managerExited = new Completion(name + ".manager_exited");
        this.refs = new RefcountT(name + ".refs", 0);
        this.started = new Completion(name + ".done(started)");
        this.done = new Completion(name + ".done");
        this.useRefs = new RefcountT(name + ".use_refs", 0);
        this.processes = new AtomicT(name + ".user.processes", 0);
        this.wqe = new Wqe(this, bounded, maxUnbound);
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * fs/io-wq.c: {@code io_wq_create(bounded, data)} (v5.10): the pool with at most
     * {@code bounded} bound workers and {@code maxUnbound} unbound ones ({@code RLIMIT_NPROC});
     * starts the manager and waits until it has created the fixed worker. Called by a task
     * (io_uring's {@code io_init_wq_offload()} at ring setup).
     */
    public static IoWq ioWqCreate(String name, int bounded, int maxUnbound, DoWork doWork, FreeWork freeWork) {
        Kernel.BUG_ON(doWork == null || freeWork == null, "io_wq_create: no do_work/free_work");
        IoWq wq = new IoWq(name, bounded, maxUnbound, doWork, freeWork);
        wq.manager = Kernel.rt().spawn(name + ".manager", "io-wq", false, true, () -> ioWqManager(wq));
        wq.tasks.add(wq.manager);
        Completion.waitForCompletionIo(wq.started);
        wq.useRefs.set(1);
        return wq;
    }

    /** fs/io-wq.c: {@code io_wq_get_task()}: the manager, where io_uring sends task_work of exiting tasks. */
    public static Task ioWqGetTask(IoWq wq) {
        return wq.manager;
    }

    /** fs/io-wq.c: {@code io_worker_get()}: {@code refcount_inc_not_zero(&worker->ref)}. */
    static boolean ioWorkerGet(IoWorker worker) {
        return worker.ref.incNotZero();
    }

    /** fs/io-wq.c: {@code io_worker_release()}: the last reference wakes the exiting worker. */
    static void ioWorkerRelease(IoWorker worker) {
        if (worker.ref.decAndTest()) {
            Sched.wakeUpProcess(worker.task);
        }
    }

    /** fs/io-wq.c: {@code io_work_get_acct()}: the accounting class of a work. */
    static Acct ioWorkGetAcct(Wqe wqe, IoWqWork work) {
        if ((work.flags & IoWqWork.IO_WQ_WORK_UNBOUND) != 0) {
            return wqe.acct[IO_WQ_ACCT_UNBOUND];
        }
        return wqe.acct[IO_WQ_ACCT_BOUND];
    }

    /** fs/io-wq.c: {@code io_wqe_get_acct()}: the accounting class of a worker. */
    static Acct ioWqeGetAcct(Wqe wqe, IoWorker worker) {
        if ((worker.flags & IO_WORKER_F_BOUND) != 0) {
            return wqe.acct[IO_WQ_ACCT_BOUND];
        }
        return wqe.acct[IO_WQ_ACCT_UNBOUND];
    }

    /**
     * fs/io-wq.c: {@code io_worker_exit()}: wait for brief users of the worker, drop its running
     * count, take it off the lists, drop its {@code wq->refs} (the last reference completes
     * {@code wq->done}).
     */
    static void ioWorkerExit(IoWorker worker) {
        Wqe wqe = worker.wqe;
        Acct acct = ioWqeGetAcct(wqe, worker);
        Task me = Sched.current();

        /* If we're not at zero, someone else is holding a brief reference to the worker. Wait for that to go away. */
        Sched.setCurrentState(Task.TASK_INTERRUPTIBLE);
        if (!worker.ref.decAndTest()) {
            Sched.waitingOn("the last io_worker_get() user of " + worker);
            Sched.schedule();
        }
        Sched.__setCurrentState(Task.TASK_RUNNING);

        me.setIoWorker(null);
        if ((worker.flags & IO_WORKER_F_RUNNING) != 0) {
            acct.nrRunning.dec();
        }
        if ((worker.flags & IO_WORKER_F_BOUND) == 0) {
            wqe.wq.processes.dec();
        }
        worker.flags = 0;

        Spinlock.spinLockIrq(wqe.lock);
        wqe.freeList.remove(worker);
        wqe.allList.remove(worker);
        Kernel.access(wqe.acct[IO_WQ_ACCT_BOUND]);
        Kernel.access(wqe.acct[IO_WQ_ACCT_UNBOUND]);
        acct.nrWorkers--;
        int nrWorkers = wqe.acct[IO_WQ_ACCT_BOUND].nrWorkers + wqe.acct[IO_WQ_ACCT_UNBOUND].nrWorkers;
        Spinlock.spinUnlockIrq(wqe.lock);

        if (Kernel.bug(IoUringBugs.IOWQ_REFS_PER_NODE)) {
            /* v5.9: all workers gone, wq exit can proceed */
            if (nrWorkers == 0 && wqe.wq.refs.decAndTest()) {
                Completion.complete(wqe.wq.done);
            }
            return;
        }
        /* kfree_rcu(worker, rcu) */
        if (wqe.wq.refs.decAndTest()) {
            Completion.complete(wqe.wq.done);
        }
    }

    /** fs/io-wq.c: {@code io_wqe_run_queue()}: work queued and not stalled; under {@code wqe->lock}. */
    static boolean ioWqeRunQueue(Wqe wqe) {
        return wqe.workHead != null && (wqe.flags & IO_WQE_FLAG_STALLED) == 0;
    }

    /**
     * fs/io-wq.c: {@code io_wqe_activate_free_worker()}: wake the first worker on the free list
     * (under RCU, pinned by {@code io_worker_get()}); false if there is none.
     */
    static boolean ioWqeActivateFreeWorker(Wqe wqe) {
        ArrayList<IoWorker> free = wqe.freeList.rcuRead("rcu_dereference(free_list)");
        if (free.isEmpty()) {
            return false;
        }
        IoWorker worker = free.get(0);
        if (ioWorkerGet(worker)) {
            Sched.wakeUpProcess(worker.task);
            ioWorkerRelease(worker);
            return true;
        }
        return false;
    }

    /**
     * fs/io-wq.c: {@code io_wqe_wake_worker()}: "We need a worker. If we find a free one, we're
     * good. If not, and we're below the max number of workers, wake up the manager to create
     * one." ({@code acct->nr_workers} is read without the lock, as in the kernel.)
     */
    static void ioWqeWakeWorker(Wqe wqe, Acct acct) {
        Kernel.WARN_ON(acct.maxWorkers == 0, "io_wqe_wake_worker: unbounded work on an io_wq without unbound workers");
        boolean ret = ioWqeActivateFreeWorker(wqe);
        Kernel.accessRead(acct);
        if (!ret && acct.nrWorkers < acct.maxWorkers) {
            Sched.wakeUpProcess(wqe.wq.manager);
        }
    }

    /** fs/io-wq.c: {@code io_wqe_inc_running()}. */
    static void ioWqeIncRunning(Wqe wqe, IoWorker worker) {
        ioWqeGetAcct(wqe, worker).nrRunning.inc();
    }

    /**
     * fs/io-wq.c: {@code io_wqe_dec_running()}: the last running worker of its class going idle or
     * to sleep, with work queued, wakes another; under {@code wqe->lock}.
     */
    static void ioWqeDecRunning(Wqe wqe, IoWorker worker) {
        Acct acct = ioWqeGetAcct(wqe, worker);
        if (acct.nrRunning.decAndTest() && ioWqeRunQueue(wqe)) {
            ioWqeWakeWorker(wqe, acct);
        }
    }

    /** fs/io-wq.c: {@code io_worker_start()}: mark the task {@code PF_IO_WORKER}, up and running. */
    static void ioWorkerStart(Wqe wqe, IoWorker worker) {
        Sched.current().setIoWorker(worker);
        worker.flags |= IO_WORKER_F_UP | IO_WORKER_F_RUNNING;
        ioWqeIncRunning(wqe, worker);
    }

    /**
     * fs/io-wq.c: {@code __io_worker_busy()}: off the free list; move between the bound and
     * unbound accounts if the work is of the other class. Under {@code wqe->lock}.
     */
    static void __ioWorkerBusy(Wqe wqe, IoWorker worker, IoWqWork work) {
        if ((worker.flags & IO_WORKER_F_FREE) != 0) {
            worker.flags &= ~IO_WORKER_F_FREE;
            wqe.freeList.remove(worker);
        }
        boolean workerBound = (worker.flags & IO_WORKER_F_BOUND) != 0;
        boolean workBound = (work.flags & IoWqWork.IO_WQ_WORK_UNBOUND) == 0;
        if (workerBound != workBound) {
            ioWqeDecRunning(wqe, worker);
            Kernel.access(wqe.acct[IO_WQ_ACCT_BOUND]);
            Kernel.access(wqe.acct[IO_WQ_ACCT_UNBOUND]);
            if (workBound) {
                worker.flags |= IO_WORKER_F_BOUND;
                wqe.acct[IO_WQ_ACCT_UNBOUND].nrWorkers--;
                wqe.acct[IO_WQ_ACCT_BOUND].nrWorkers++;
                wqe.wq.processes.dec();
            } else {
                worker.flags &= ~IO_WORKER_F_BOUND;
                wqe.acct[IO_WQ_ACCT_UNBOUND].nrWorkers++;
                wqe.acct[IO_WQ_ACCT_BOUND].nrWorkers--;
                wqe.wq.processes.inc();
            }
            ioWqeIncRunning(wqe, worker);
        }
    }

    /**
     * fs/io-wq.c: {@code __io_worker_idle()}: onto the free list. Returns whether
     * {@code wqe->lock} was dropped, which in the kernel only an mm or files switch does (not
     * modelled): always false here.
     */
    static boolean __ioWorkerIdle(Wqe wqe, IoWorker worker) {
        if ((worker.flags & IO_WORKER_F_FREE) == 0) {
            worker.flags |= IO_WORKER_F_FREE;
            wqe.freeList.add(0, worker);
        }
        return false;
    }

    /** fs/io-wq.c: {@code io_get_next_work()} without hashed work: the head of the list; under {@code wqe->lock}. */
    static IoWqWork ioGetNextWork(Wqe wqe) {
        IoWqWork work = wqe.workHead;
        if (work != null) {
            wqe.workHead = work.next;
            if (wqe.workHead == null) {
                wqe.workTail = null;
            }
            work.next = null;
        }
        return work;
    }

    /** fs/io-wq.c: {@code io_assign_current_work()}: publish {@code cur_work} under {@code worker->lock}. */
    static void ioAssignCurrentWork(IoWorker worker, IoWqWork work) {
        Spinlock.spinLockIrq(worker.lock);
        worker.curWork = work;
        Spinlock.spinUnlockIrq(worker.lock);
    }

    /**
     * fs/io-wq.c: {@code io_worker_handle_work()}: called with {@code wqe->lock} held, returns
     * with it released: take work off the list and run it ({@code do_work}, then
     * {@code free_work}), with any linked work it returns, until the list is empty.
     */
    static void ioWorkerHandleWork(IoWorker worker) {
        Wqe wqe = worker.wqe;
        IoWq wq = wqe.wq;
        for (;;) {
            /*
             * If we got some work, mark us as busy. If we didn't, but the list isn't empty, it
             * means we stalled on hashed work.
             */
            IoWqWork work = ioGetNextWork(wqe);
            if (work != null) {
                __ioWorkerBusy(wqe, worker, work);
            } else if (wqe.workHead != null) {
                wqe.flags |= IO_WQE_FLAG_STALLED;
            }
            Spinlock.spinUnlockIrq(wqe.lock);
            if (work == null) {
                break;
            }
            ioAssignCurrentWork(worker, work);

            /* handle a whole dependent link */
            do {
                /* OK to set IO_WQ_WORK_CANCEL even for uncancellable work, the worker function will do the right thing. */
                if (Bitops.testBit(IO_WQ_BIT_CANCEL, wq.state)) {
                    work.flags |= IoWqWork.IO_WQ_WORK_CANCEL;
                }
                IoWqWork oldWork = work;
                Kernel.event("io-wq: %s runs %s", worker, work);
                wq.worksRun++;
                IoWqWork linked = wq.doWork.doWork(work);
                work = linked;
                ioAssignCurrentWork(worker, work);
                wq.freeWork.freeWork(oldWork);
            } while (work != null);

            Spinlock.spinLockIrq(wqe.lock);
        }
    }

    /**
     * fs/io-wq.c: {@code io_wqe_worker()}: the worker's loop: run queued work, else go on the free
     * list and sleep until woken; on {@code IO_WQ_BIT_EXIT}, finish what is queued and exit.
     * ({@code schedule_timeout(WORKER_IDLE_TIMEOUT)} is {@code schedule()}: see the class
     * comment.)
     */
    static void ioWqeWorker(IoWorker worker) {
        Wqe wqe = worker.wqe;
        IoWq wq = wqe.wq;
        ioWorkerStart(wqe, worker);
        for (;;) {
            /*
             * The kernel tests IO_WQ_BIT_EXIT before set_current_state(): an io_wq_destroy()
             * between the two loses its wake-up, and the worker leaves only when
             * schedule_timeout(WORKER_IDLE_TIMEOUT) expires and it tests the bit again. The model
             * has no timers, so it sets the state first and then tests the bit (i9-uring: found
             * as a missed-wakeup of the exit work on io_wq->done in uring-exit-armed).
             */
            Sched.setCurrentState(Task.TASK_INTERRUPTIBLE);
            if (Bitops.testBit(IO_WQ_BIT_EXIT, wq.state)) {
                Sched.__setCurrentState(Task.TASK_RUNNING);
                break;
            }
            for (;;) { /* loop: */
                Spinlock.spinLockIrq(wqe.lock);
                if (ioWqeRunQueue(wqe)) {
                    Sched.__setCurrentState(Task.TASK_RUNNING);
                    ioWorkerHandleWork(worker);
                    continue;
                }
                /* drops the lock on success, retry */
                if (__ioWorkerIdle(wqe, worker)) {
                    continue;
                }
                break;
            }
            Spinlock.spinUnlockIrq(wqe.lock);
            Sched.waitingOn("work on " + wq + " (idle io-wq worker)");
            Sched.schedule();
        }
        Spinlock.spinLockIrq(wqe.lock);
        if (wqe.workHead != null) {
            ioWorkerHandleWork(worker);
        } else {
            Spinlock.spinUnlockIrq(wqe.lock);
        }
        ioWorkerExit(worker);
    }

    /** fs/io-wq.c: {@code io_wq_worker_running()}: called when a worker is scheduled in. */
    static void ioWqWorkerRunning(IoWorker worker) {
        if ((worker.flags & IO_WORKER_F_UP) == 0) {
            return;
        }
        if ((worker.flags & IO_WORKER_F_RUNNING) != 0) {
            return;
        }
        worker.flags |= IO_WORKER_F_RUNNING;
        ioWqeIncRunning(worker.wqe, worker);
    }

    /**
     * fs/io-wq.c: {@code io_wq_worker_sleeping()}: "Called when worker is going to sleep. If
     * there are no workers currently running and we have work pending, wake up a free one or
     * have the manager set one up."
     */
    static void ioWqWorkerSleeping(IoWorker worker) {
        if ((worker.flags & IO_WORKER_F_UP) == 0) {
            return;
        }
        if ((worker.flags & IO_WORKER_F_RUNNING) == 0) {
            return;
        }
        worker.flags &= ~IO_WORKER_F_RUNNING;
        Spinlock.spinLockIrq(worker.wqe.lock);
        ioWqeDecRunning(worker.wqe, worker);
        Spinlock.spinUnlockIrq(worker.wqe.lock);
    }

    /**
     * fs/io-wq.c: {@code create_io_worker()}: a new worker task of class {@code index}, put on the
     * free list, holding a {@code wq->refs} reference; the first bound worker is the fixed one.
     * Allocation never fails in the model.
     */
    static boolean createIoWorker(IoWq wq, Wqe wqe, int index) {
        Acct acct = wqe.acct[index];
        String wname = wq.name + ".worker" + wq.workerSeq++;
        IoWorker worker = new IoWorker(wqe, wname);
        worker.task = kthreadCreate(wname, () -> ioWqeWorker(worker));
        wq.tasks.add(worker.task);
        wq.workersCreated++;
        Kernel.event("io-wq: %s created (%s)", wname, index == IO_WQ_ACCT_BOUND ? "bound" : "unbound");

        Spinlock.spinLockIrq(wqe.lock);
        wqe.freeList.add(0, worker);
        wqe.allList.add(wqe.allList.workers.size(), worker);
        worker.flags |= IO_WORKER_F_FREE;
        if (index == IO_WQ_ACCT_BOUND) {
            worker.flags |= IO_WORKER_F_BOUND;
        }
        Kernel.access(acct);
        if (acct.nrWorkers == 0 && (worker.flags & IO_WORKER_F_BOUND) != 0) {
            worker.flags |= IO_WORKER_F_FIXED;
        }
        acct.nrWorkers++;
        Spinlock.spinUnlockIrq(wqe.lock);

        if (index == IO_WQ_ACCT_UNBOUND) {
            wq.processes.inc();
        }
        if (!Kernel.bug(IoUringBugs.IOWQ_REFS_PER_NODE)) {
            wq.refs.inc();
        }
        Sched.wakeUpProcess(worker.task);
        return true;
    }

    /**
     * kernel/kthread.c: {@code kthread_create()}: a new kernel thread (a daemon task of column
     * "io-wq") that sleeps {@code TASK_UNINTERRUPTIBLE} until its first {@code wake_up_process()};
     * as in the kernel, the creator waits until the new thread has gone to sleep
     * ({@code kthread()} completes {@code create->done} after setting its state).
     */
    static Task kthreadCreate(String name, Runnable threadfn) {
        Completion created = new Completion(name + ".created");
        Task tsk = Kernel.rt().spawn(name, "io-wq", false, true, () -> {
            Sched.__setCurrentState(Task.TASK_UNINTERRUPTIBLE);
            Completion.complete(created);
            Sched.waitingOn("its first wake_up_process() (new kthread)");
            Sched.schedule();
            threadfn.run();
        });
        Completion.waitForCompletionIo(created);
        return tsk;
    }

    /**
     * fs/io-wq.c: {@code io_wqe_need_worker()}: no free worker, work to run, and room for
     * another worker of class {@code index}; under {@code wqe->lock}.
     */
    static boolean ioWqeNeedWorker(Wqe wqe, int index) {
        Acct acct = wqe.acct[index];
        /* if we have available workers or no work, no need */
        Kernel.access(wqe.freeList);
        if (!wqe.freeList.workers.isEmpty() || !ioWqeRunQueue(wqe)) {
            return false;
        }
        Kernel.accessRead(acct);
        return acct.nrWorkers < acct.maxWorkers;
    }

    /** kernel/kthread.c: {@code kthread_should_stop()} of the manager. */
    static boolean kthreadShouldStop(IoWq wq) {
        return wq.managerShouldStop.readOnce();
    }

    /**
     * fs/io-wq.c: {@code io_wq_manager()}: take the manager's {@code wq->refs} reference, create
     * the fixed worker, then until stopped: run task_work sent to this task, create the workers
     * that are needed, sleep; at the end drop its reference. See the class comment for its
     * {@code schedule_timeout(HZ)}.
     */
    static void ioWqManager(IoWq wq) {
        Wqe wqe = wq.wqe;
        /* create fixed workers */
        wq.refs.set(1);
        createIoWorker(wq, wqe, IO_WQ_ACCT_BOUND);
        Completion.complete(wq.started);

        Task me = Sched.current();
        while (!kthreadShouldStop(wq)) {
            if (Sched.taskWorkPending(me)) {
                Sched.taskWorkRun();
            }
            Spinlock.spinLockIrq(wqe.lock);
            boolean forkBound = ioWqeNeedWorker(wqe, IO_WQ_ACCT_BOUND);
            boolean forkUnbound = ioWqeNeedWorker(wqe, IO_WQ_ACCT_UNBOUND);
            Spinlock.spinUnlockIrq(wqe.lock);
            if (forkBound) {
                createIoWorker(wq, wqe, IO_WQ_ACCT_BOUND);
            }
            if (forkUnbound) {
                createIoWorker(wq, wqe, IO_WQ_ACCT_UNBOUND);
            }
            Sched.setCurrentState(Task.TASK_INTERRUPTIBLE);
            /* Model-only re-test, standing for schedule_timeout(HZ)'s return (class comment). */
            Spinlock.spinLockIrq(wqe.lock);
            boolean needed = ioWqeNeedWorker(wqe, IO_WQ_ACCT_BOUND) || ioWqeNeedWorker(wqe, IO_WQ_ACCT_UNBOUND);
            Spinlock.spinUnlockIrq(wqe.lock);
            if (needed || kthreadShouldStop(wq) || Sched.taskWorkPending(me)) {
                Sched.__setCurrentState(Task.TASK_RUNNING);
                continue;
            }
            Sched.waitingOn("a reason to run (io-wq manager of " + wq + ")");
            Sched.schedule();
        }
        if (Sched.taskWorkPending(me)) {
            Sched.taskWorkRun();
        }
        /* out: the manager's own reference (v5.10; v5.9's manager held none) */
        if (!Kernel.bug(IoUringBugs.IOWQ_REFS_PER_NODE) && wq.refs.decAndTest()) {
            Completion.complete(wq.done);
        }
        /* kthread exit: kthread_stop() returns */
        Completion.complete(wq.managerExited);
    }

    /**
     * fs/io-wq.c: {@code io_wq_can_queue()}: bound work always; unbound work if a worker of
     * its class runs or is free, or the user is below {@code RLIMIT_NPROC}.
     */
    static boolean ioWqCanQueue(Wqe wqe, Acct acct, IoWqWork work) {
        if ((work.flags & IoWqWork.IO_WQ_WORK_UNBOUND) == 0) {
            return true;
        }
        if (acct.nrRunning.read() != 0) {
            return true;
        }
        if (!wqe.freeList.rcuRead("rcu_dereference(free_list)").isEmpty()) {
            return true;
        }
        return wqe.wq.processes.read() < acct.maxWorkers;
    }

    /**
     * fs/io-wq.c: {@code io_run_cancel()}: run the work (and its links) with
     * {@code IO_WQ_WORK_CANCEL} set, which completes it as cancelled, then free it.
     */
    static void ioRunCancel(IoWqWork work, Wqe wqe) {
        IoWq wq = wqe.wq;
        do {
            IoWqWork oldWork = work;
            work.flags |= IoWqWork.IO_WQ_WORK_CANCEL;
            wq.worksCancelled++;
            Kernel.event("io-wq: cancel %s", work);
            work = wq.doWork.doWork(work);
            wq.freeWork.freeWork(oldWork);
        } while (work != null);
    }

    /** fs/io-wq.c: {@code io_wqe_insert_work()} without hashed work: append; under {@code wqe->lock}. */
    static void ioWqeInsertWork(Wqe wqe, IoWqWork work) {
        work.next = null;
        if (wqe.workTail == null) {
            wqe.workHead = work;
        } else {
            wqe.workTail.next = work;
        }
        wqe.workTail = work;
    }

    /**
     * fs/io-wq.c: {@code io_wqe_enqueue()}: queue the work and, unless a worker of its class is
     * running (or the work is {@code IO_WQ_WORK_CONCURRENT}), wake a free worker or the manager.
     * Unbound work over the user's process limit is cancelled at once.
     */
    static void ioWqeEnqueue(Wqe wqe, IoWqWork work) {
        Acct acct = ioWorkGetAcct(wqe, work);
        if (!ioWqCanQueue(wqe, acct, work)) {
            ioRunCancel(work, wqe);
            return;
        }
        int workFlags = work.flags;
        long flags = Spinlock.spinLockIrqsave(wqe.lock);
        ioWqeInsertWork(wqe, work);
        wqe.flags &= ~IO_WQE_FLAG_STALLED;
        Spinlock.spinUnlockIrqrestore(wqe.lock, flags);

        if ((workFlags & IoWqWork.IO_WQ_WORK_CONCURRENT) != 0 || acct.nrRunning.read() == 0) {
            ioWqeWakeWorker(wqe, acct);
        }
    }

    /** fs/io-wq.c: {@code io_wq_enqueue()}: the punt. */
    public static void ioWqEnqueue(IoWq wq, IoWqWork work) {
        wq.punts++;
        Kernel.event("io_wq_enqueue(%s, %s)", wq, work);
        ioWqeEnqueue(wq.wqe, work);
    }

    /**
     * fs/io-wq.c: {@code io_wq_cancel_all()}: mark the queue cancelling (work taken from now on
     * runs with {@code IO_WQ_WORK_CANCEL}); the {@code SIGINT} to running workers is not modelled.
     */
    public static void ioWqCancelAll(IoWq wq) {
        Bitops.setBit(IO_WQ_BIT_CANCEL, wq.state);
    }

    /**
     * fs/io-wq.c: {@code io_wq_cancel_cb()}: cancel queued works that {@code cancel} matches (run
     * with {@code IO_WQ_WORK_CANCEL}: {@code IO_WQ_CANCEL_OK}), else find a running one
     * ({@code IO_WQ_CANCEL_RUNNING}: it completes normally), else {@code IO_WQ_CANCEL_NOTFOUND}.
     * {@code cancelAll}: every match, not only the first.
     */
    public static int ioWqCancelCb(IoWq wq, CancelFn cancel, Object data, boolean cancelAll) {
        Wqe wqe = wq.wqe;
        int nrPending = 0;
        int nrRunning = 0;

        /* io_wqe_cancel_pending_work() */
        retry:
        for (;;) {
            long flags = Spinlock.spinLockIrqsave(wqe.lock);
            IoWqWork prev = null;
            for (IoWqWork work = wqe.workHead; work != null; prev = work, work = work.next) {
                Kernel.rt().loopStep("io_wqe_cancel_pending_work");
                if (!cancel.match(work, data)) {
                    continue;
                }
                /* io_wqe_remove_pending() */
                if (prev == null) {
                    wqe.workHead = work.next;
                } else {
                    prev.next = work.next;
                }
                if (wqe.workTail == work) {
                    wqe.workTail = prev;
                }
                work.next = null;
                Spinlock.spinUnlockIrqrestore(wqe.lock, flags);
                ioRunCancel(work, wqe);
                nrPending++;
                if (!cancelAll) {
                    return IO_WQ_CANCEL_OK;
                }
                /* not safe to continue after unlock */
                continue retry;
            }
            Spinlock.spinUnlockIrqrestore(wqe.lock, flags);
            break;
        }

        /* io_wqe_cancel_running_work(): io_wq_for_each_worker(io_wq_worker_cancel) */
        for (IoWorker worker : wqe.allList.rcuRead("list_for_each_entry_rcu(all_list)")) {
            if (ioWorkerGet(worker)) {
                long flags = Spinlock.spinLockIrqsave(worker.lock);
                IoWqWork cur = worker.curWork;
                boolean hit = cur != null && (cur.flags & IoWqWork.IO_WQ_WORK_NO_CANCEL) == 0 && cancel.match(cur, data);
                if (hit) {
                    /* send_sig(SIGINT, worker->task, 1): not modelled */
                    nrRunning++;
                }
                Spinlock.spinUnlockIrqrestore(worker.lock, flags);
                ioWorkerRelease(worker);
                if (nrRunning != 0 && !cancelAll) {
                    return IO_WQ_CANCEL_RUNNING;
                }
            }
        }
        if (nrRunning != 0) {
            return IO_WQ_CANCEL_RUNNING;
        }
        if (nrPending != 0) {
            return IO_WQ_CANCEL_OK;
        }
        return IO_WQ_CANCEL_NOTFOUND;
    }

    /**
     * fs/io-wq.c: {@code io_wq_destroy()}: the last user sets {@code IO_WQ_BIT_EXIT}, stops the
     * manager ({@code kthread_stop()}: it runs any task_work left, then exits), wakes every worker
     * and waits until all have exited (each finishes the work still queued first).
     */
    public static void ioWqDestroy(IoWq wq) {
        if (!wq.useRefs.decAndTest()) {
            return;
        }
        Bitops.setBit(IO_WQ_BIT_EXIT, wq.state);
        /* kthread_stop(wq->manager) */
        wq.managerShouldStop.writeOnce(true);
        Sched.wakeUpProcess(wq.manager);
        Completion.waitForCompletionIo(wq.managerExited);

        for (IoWorker worker : wq.wqe.allList.rcuRead("list_for_each_entry_rcu(all_list)")) {
            if (ioWorkerGet(worker)) {
                Sched.wakeUpProcess(worker.task);
                ioWorkerRelease(worker);
            }
        }
        Completion.waitForCompletionIo(wq.done);
        Kernel.event("io_wq_destroy(%s): all workers exited", wq);
    }

    /** Workers alive now (checks, counters; no scheduling point). */
    public int peekWorkers() {
        return wqe.allList.workers.size();
    }
}
