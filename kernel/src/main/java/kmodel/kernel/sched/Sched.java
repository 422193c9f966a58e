package kmodel.kernel.sched;

import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;

/**
 * kernel/sched/core.c, include/linux/sched.h, include/linux/sched/signal.h, kernel/signal.c:
 * task state, sleeping, waking and signals.
 *
 * <h2>The sleep/wake-up protocol</h2>
 * A sleeper sets its state <em>before</em> it tests the condition it waits for, then calls
 * {@link #schedule()}; a waker makes the condition true, then wakes. {@code try_to_wake_up()}
 * only wakes a task whose state matches the waker's mask, setting it to {@code TASK_RUNNING};
 * {@code schedule()} of a task already set back to running returns at once:
 * <pre>
 *   sleeper                              waker
 *   set_current_state(TASK_UNINTERRUPTIBLE);
 *   if (!cond)                           cond = true;
 *       schedule();                      wake_up_process(sleeper);
 * </pre>
 * Testing the condition before setting the state loses the wake-up when the waker runs in
 * between (catalog bug {@code textbook-check-then-sleep}).
 */
public final class Sched {
    private Sched() {
    }

    /** include/asm-generic/current.h: {@code current}. */
    public static Task current() {
        return Kernel.current();
    }

    /**
     * include/linux/sched.h: {@code set_current_state()}: {@code smp_store_mb(current->state,
     * state)}, the store then a full barrier, so that the test of the condition that follows cannot
     * be satisfied before the state is visible to a waker ("This pairs with smp_mb__after_spinlock()
     * in try_to_wake_up()"). The state itself is sequentially consistent in the model (it is the
     * scheduler's, read under {@code p->pi_lock}); the barrier orders the sleeper's other accesses
     * under {@code --memory-model lkmm}.
     */
    public static void setCurrentState(int state) {
        Runtime rt = Kernel.rt();
        rt.point("set_current_state", null);
        rt.current().state = state;
        rt.fence(kmodel.kernel.lkmm.Fence.MB, "set_current_state"); // smp_store_mb(): the mb half
    }

    /** include/linux/sched.h: {@code __set_current_state()}, no barrier. */
    public static void __setCurrentState(int state) {
        Runtime rt = Kernel.rt();
        rt.access(rt.current()); // try_to_wake_up() reads it: no point, but not independent
        rt.current().state = state;
    }

    /** Records what the current task is about to sleep on (for missed-wakeup reports). */
    public static void waitingOn(String what) {
        Task me = Kernel.rt().current();
        me.waitingOn = what;
        me.waitsFor = null;
    }

    /**
     * Records what the current task is about to sleep on, and the lock whose holder it waits
     * for (model-only, for stuck-task and {@code deadlock} reports).
     */
    public static void waitingFor(String what, LockHolders lock) {
        Task me = Kernel.rt().current();
        me.waitingOn = what;
        me.waitsFor = lock;
    }

    /**
     * The model's fairness point for a busy-wait loop whose last round found nothing and changed
     * nothing ({@link Runtime#spinYield}): not a kernel function. Only such rounds may call it.
     */
    public static void spinYield(String what) {
        Kernel.rt().spinYield(what);
    }

    /**
     * kernel/sched/core.c: {@code schedule()}. If the task's state is not {@code TASK_RUNNING}
     * it sleeps until woken, unless a signal its state admits is pending
     * ({@code signal_pending_state()}, checked by {@code __schedule()} in the same step).
     * Sleeping in interrupt context is a {@code bug-on} ("scheduling while atomic"); sleeping
     * with a spinlock held is a {@code lock-leak}; sleeping inside {@link #nowaitEnter} is
     * {@code blocked-in-nowait}. An io-wq worker ({@code PF_IO_WORKER}) calls io-wq's
     * {@code io_wq_worker_sleeping()} before it sleeps and {@code io_wq_worker_running()} after
     * ({@code sched_submit_work()}, {@code sched_update_worker()}).
     */
    public static void schedule() {
        Runtime rt = Kernel.rt();
        Task me = rt.current();
        if (me.inInterrupt()) {
            Kernel.fail(ViolationKind.BUG_ON, "scheduling while atomic: " + me.name() + " called schedule() in interrupt context");
        }
        if (me.locksHeld > 0) {
            Kernel.fail(ViolationKind.LOCK_LEAK, me.name() + " called schedule() holding " + me.locksHeld + " spinlock(s)");
        }
        rt.point("schedule", null);
        // __schedule(): rq_lock(rq); smp_mb__after_spinlock(); before it reads prev->state (v5.10)
        rt.fence(kmodel.kernel.lkmm.Fence.MB_AFTER_SPINLOCK, "__schedule");
        if (me.state == Task.TASK_RUNNING) {
            return;
        }
        Task.IoWorkerHooks worker = me.ioWorker;
        if (worker != null) {
            /* sched_submit_work(): a PF_IO_WORKER about to sleep may hand its work on. */
            worker.ioWqWorkerSleeping(me);
            if (me.state == Task.TASK_RUNNING) {
                /* woken meanwhile: __schedule() does not dequeue it */
                worker.ioWqWorkerRunning(me);
                return;
            }
        }
        if (signalPendingStateInSchedule(me.state, me)) {
            me.state = Task.TASK_RUNNING;
            if (worker != null) {
                worker.ioWqWorkerRunning(me);
            }
            return;
        }
        if (me.nowaitDepth > 0) {
            Kernel.fail(ViolationKind.BLOCKED_IN_NOWAIT, me.name() + " sleeps in " + Task.stateName(me.state)
                    + (me.waitingOn != null ? " waiting on " + me.waitingOn : "") + " inside a non-blocking attempt ("
                    + me.nowaitWhy + ")");
        }
        me.nvcsw++;
        rt.block();
        me.waitingOn = null;
        me.waitsFor = null;
        if (worker != null) {
            /* sched_update_worker() */
            worker.ioWqWorkerRunning(me);
        }
    }

    /**
     * Enters a non-blocking section of the current task (model-only, no kernel function): io_uring's
     * {@code force_nonblock} issue, a read with {@code IOCB_NOWAIT}, a submission under a nowait
     * plug. Until the matching {@link #nowaitExit()}, a {@link #schedule()} that would sleep is a
     * {@code blocked-in-nowait} violation, reported at the step where the task would sleep, with
     * what it waits on. Sections nest; {@code why} of the outermost is reported. Not a scheduling
     * point.
     */
    public static void nowaitEnter(String why) {
        Task me = Kernel.rt().current();
        if (me.nowaitDepth++ == 0) {
            me.nowaitWhy = why;
        }
    }

    /** Leaves the section entered by the matching {@link #nowaitEnter}. Not a scheduling point. */
    public static void nowaitExit() {
        Task me = Kernel.rt().current();
        Kernel.BUG_ON(me.nowaitDepth <= 0, "nowaitExit() without nowaitEnter() in " + me.name());
        if (--me.nowaitDepth == 0) {
            me.nowaitWhy = null;
        }
    }

    /**
     * Enters a section that must not start I/O ({@code IOCB_NOIO}; model-only): until the matching
     * {@link #noioExit()}, {@link #mayIssueIo} is a {@code blocked-in-nowait} violation. Not a
     * scheduling point.
     */
    public static void noioEnter(String why) {
        Task me = Kernel.rt().current();
        if (me.noioDepth++ == 0) {
            me.noioWhy = why;
        }
    }

    /** Leaves the section entered by the matching {@link #noioEnter}. Not a scheduling point. */
    public static void noioExit() {
        Task me = Kernel.rt().current();
        Kernel.BUG_ON(me.noioDepth <= 0, "noioExit() without noioEnter() in " + me.name());
        if (--me.noioDepth == 0) {
            me.noioWhy = null;
        }
    }

    /**
     * The check a submission makes ({@code submit_bio()} calls it; model-only): starting I/O inside
     * a {@link #noioEnter} section is {@code blocked-in-nowait}. {@code what} names the I/O.
     * Interrupt-context tasks are never in a section. Not a scheduling point.
     */
    public static void mayIssueIo(String what) {
        Task me = Kernel.rt().current();
        if (me != null && me.noioDepth > 0) {
            Kernel.fail(ViolationKind.BLOCKED_IN_NOWAIT, me.name() + " starts I/O (" + what
                    + ") inside a section told not to (" + me.noioWhy + ")");
        }
    }

    /** kernel/sched/core.c: {@code io_schedule()}: schedule() accounted as I/O wait. */
    public static void ioSchedule() {
        schedule();
    }

    /** kernel/sched/core.c: {@code wake_up_process()}: wakes {@code p} from either sleeping state. */
    public static boolean wakeUpProcess(Task p) {
        return Kernel.rt().tryToWakeUp(p, Task.TASK_NORMAL);
    }

    /** kernel/sched/core.c: {@code wake_up_state()}: wakes {@code p} if {@code p->state & state}. */
    public static boolean wakeUpState(Task p, int state) {
        return Kernel.rt().tryToWakeUp(p, state);
    }

    /**
     * include/linux/sched/signal.h: {@code signal_pending()}: a lockless read of
     * {@code TIF_SIGPENDING}, which a sender sets at any time; its own scheduling point (a read of
     * {@code p}), so that a signal can arrive between it and the step before.
     */
    public static boolean signalPending(Task p) {
        Kernel.rt().pointRead("signal_pending", p);
        return p.sigPending;
    }

    /**
     * include/linux/sched/signal.h: {@code fatal_signal_pending()}: a lockless read, its own
     * scheduling point like {@link #signalPending}.
     */
    public static boolean fatalSignalPending(Task p) {
        Kernel.rt().pointRead("fatal_signal_pending", p);
        return p.sigPending && p.fatalSignal;
    }

    /**
     * include/linux/sched/signal.h: {@code signal_pending_state()}: whether a pending signal
     * interrupts a sleep in {@code state}. The test of {@code state} (the caller's own) comes
     * first; only a state that admits signals reads the signal flags, at a scheduling point of
     * their own (a read of {@code p}). {@code __schedule()} makes the same test in the step of its
     * own point instead ({@link #signalPendingStateInSchedule}).
     */
    public static boolean signalPendingState(int state, Task p) {
        if ((state & (Task.TASK_INTERRUPTIBLE | Task.TASK_WAKEKILL)) == 0) {
            return false;
        }
        Kernel.rt().pointRead("signal_pending_state", p);
        return (state & Task.TASK_INTERRUPTIBLE) != 0 ? p.sigPending : p.sigPending && p.fatalSignal;
    }

    /**
     * kernel/sched/core.c: the {@code signal_pending_state(prev->state, prev)} test of
     * {@code __schedule()}: made under the run-queue lock together with the dequeue, which
     * {@code signal_wake_up()} / {@code try_to_wake_up()} serialise against, so it is part of
     * {@link #schedule()}'s step and not a scheduling point of its own.
     */
    private static boolean signalPendingStateInSchedule(int state, Task p) {
        if ((state & (Task.TASK_INTERRUPTIBLE | Task.TASK_WAKEKILL)) == 0) {
            return false;
        }
        Kernel.access(p);
        return (state & Task.TASK_INTERRUPTIBLE) != 0 ? p.sigPending : p.sigPending && p.fatalSignal;
    }

    /**
     * kernel/signal.c: {@code send_sig(SIGKILL, p, 0)} down to {@code signal_wake_up(p, 1)}:
     * marks a fatal signal pending and wakes {@code p} from an interruptible or killable sleep.
     */
    public static void sendSigkill(Task p) {
        Runtime rt = Kernel.rt();
        rt.point("send_sig(SIGKILL)", p);
        p.fatalSignal = true;
        p.sigPending = true;
        Kernel.event("SIGKILL -> %s", p.name());
        rt.tryToWakeUp(p, Task.TASK_WAKEKILL | Task.TASK_INTERRUPTIBLE);
    }

    /**
     * include/linux/task_work.h: {@code task_work_pending()} (v5.11; in v5.10 the test is open-coded
     * as {@code current->task_works} in fs/io_uring.c: io_run_task_work()): a lockless read of a
     * list any task may push onto, its own scheduling point (a read of {@code p}).
     */
    public static boolean taskWorkPending(Task p) {
        Kernel.rt().pointRead("task_work_pending", p);
        return p.taskWorks != null;
    }

    /**
     * {@code tsk->flags & PF_EXITING} read by another task (fs/io_uring.c v5.10:
     * {@code io_req_task_work_add()}): a lockless read of flags the task sets in
     * {@code do_exit()}, its own scheduling point (a read of {@code tsk}).
     */
    public static boolean taskExiting(Task tsk) {
        Kernel.rt().pointRead("tsk->flags & PF_EXITING", tsk);
        return (tsk.flags & Task.PF_EXITING) != 0;
    }

    /** {@code TWA_NONE}: queue only. */
    public static final int TWA_NONE = 0;
    /** {@code TWA_RESUME}: run on return to user space ({@code set_notify_resume}). */
    public static final int TWA_RESUME = 1;
    /** {@code TWA_SIGNAL}: also make the task see a pending signal and wake it if interruptible. */
    public static final int TWA_SIGNAL = 2;

    /**
     * kernel/task_work.c: {@code task_work_add()} (v5.10). Pushes {@code work} on {@code task}'s
     * LIFO list; fails with {@code -ESRCH} once the task has run its final
     * {@code task_work_run()} on exit ({@code work_exited}). With {@code TWA_SIGNAL} the task
     * sees {@code signal_pending()} and an interruptible sleep is woken; otherwise the caller
     * must wake it. Adding an item that is still queued (on any task) is a {@code bug-on}
     * ({@code task_work_add double add}), a model check the kernel does not make.
     */
    public static int taskWorkAdd(Task task, CallbackHead work, int notify) {
        Runtime rt = Kernel.rt();
        rt.point("task_work_add", task);
        if (task.worksExited) {
            return -Errno.ESRCH;
        }
        if (work.queuedOn != null) {
            /*
             * Not a kernel check: the kernel would link the item to itself (work->next = work when
             * it is the newest on the same task) and task_work_run() would then loop forever.
             */
            Kernel.fail(ViolationKind.BUG_ON, "task_work_add double add: " + work.label + " is already queued on "
                    + work.queuedOn.name() + " (adding it to " + task.name() + ")");
        }
        work.queuedOn = task;
        work.next = task.taskWorks;
        task.taskWorks = work;
        Kernel.event("task_work_add(%s, %s)", task.name(), work.label);
        if (notify == TWA_SIGNAL) {
            task.sigPending = true;
            rt.tryToWakeUp(task, Task.TASK_INTERRUPTIBLE);
        }
        return 0;
    }

    /**
     * kernel/task_work.c: {@code task_work_run()} (v5.10): takes the whole list and runs it,
     * newest first, until it stays empty; an exiting task then installs {@code work_exited} so
     * that later {@code task_work_add()} fails.
     */
    public static void taskWorkRun() {
        Runtime rt = Kernel.rt();
        Task me = rt.current();
        for (;;) {
            rt.point("task_work_run", null);
            CallbackHead work = me.taskWorks;
            if (work == null) {
                if ((me.flags & Task.PF_EXITING) != 0) {
                    me.worksExited = true;
                }
                if (!me.fatalSignal) {
                    me.sigPending = false;
                }
                return;
            }
            me.taskWorks = null;
            do {
                // An iteration of the runtime's own loop: a cyclic list ends as a step bound.
                rt.loopStep("task_work_run");
                CallbackHead next = work.next;
                work.queuedOn = null;
                rt.work(Work.TASK_WORK, 1);
                Kernel.event("task_work_run: %s", work.label);
                me.taskWorkRuns++;
                work.func.run(work);
                work = next;
            } while (work != null);
        }
    }

    /**
     * kernel/exit.c: the part of {@code do_exit()} the model needs: set {@code PF_EXITING},
     * then {@code exit_task_work()} (a final task_work_run that closes the list).
     */
    public static void doExit() {
        doExitBody();
    }

    /**
     * kernel/signal.c: {@code exit_signals()} (v5.10): sets {@code PF_EXITING}. For a
     * {@code do_exit()} that does something between it and {@code exit_task_work()}
     * ({@link #exitTaskWork()}); {@link #doExit()} is the two in one go.
     */
    public static void exitSignals() {
        Runtime rt = Kernel.rt();
        Task me = rt.current();
        rt.point("exit_signals", null);
        me.flags |= Task.PF_EXITING;
        Kernel.event("exit_signals: PF_EXITING");
    }

    /**
     * include/linux/task_work.h: {@code exit_task_work()} (v5.10): the exiting task's final
     * {@code task_work_run()}, which closes its list. After {@link #exitSignals()}.
     */
    public static void exitTaskWork() {
        Kernel.BUG_ON((Kernel.rt().current().flags & Task.PF_EXITING) == 0, "exit_task_work() before exit_signals()");
        taskWorkRun();
    }

    private static void doExitBody() {
        Runtime rt = Kernel.rt();
        Task me = rt.current();
        rt.point("do_exit", null);
        me.flags |= Task.PF_EXITING;
        Kernel.event("do_exit");
        taskWorkRun();
    }
}
