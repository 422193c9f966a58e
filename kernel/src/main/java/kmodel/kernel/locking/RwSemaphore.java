package kmodel.kernel.locking;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Footprinted;
import kmodel.kernel.sched.LockHolders;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;

/**
 * include/linux/rwsem.h, kernel/locking/rwsem.c (v5.10): {@code struct rw_semaphore}, a sleeping
 * reader/writer lock.
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>Fields and locks</h3>
 * The kernel packs readers, {@code RWSEM_WRITER_LOCKED} and {@code RWSEM_FLAG_WAITERS} into
 * {@code atomic_long_t count}; here they are {@link #readers} (the reading tasks: the kernel
 * keeps only a hint of them in {@code owner}, the model all of them, model-only bookkeeping for
 * reports and checks), {@link #writer} and a non-empty {@link #waitList}. Both are changed only
 * by one atomic step right after a scheduling point that names this semaphore. {@code wait_list}
 * is protected by {@code wait_lock}.
 * <pre>
 *   sem-&gt;wait_lock         (rwsem_down_{read,write}_slowpath, rwsem_wake)
 *     p-&gt;state             (wake_up_q after rwsem_mark_wake, set_current_state by the waiter)
 * </pre>
 *
 * <h3>Hand-off (coarse)</h3>
 * A waiter sleeps until the waker has granted it the lock ({@code waiter->task} cleared with a
 * release store in {@code rwsem_mark_wake()}, read with acquire by the waiter). In v5.10 the
 * waker grants read locks this way (to every queued reader, when the first waiter is a reader)
 * but a woken writer takes the lock itself in {@code rwsem_try_write_lock()}; the model grants a
 * writer its lock too. Optimistic spinning, {@code RWSEM_FLAG_HANDOFF}, reader-owned-lock
 * spinning and the {@code MAX_READERS_WAKEUP} limit are left out. A fast path fails whenever
 * anyone is queued ({@code RWSEM_FLAG_WAITERS} is in {@code RWSEM_READ_FAILED_MASK}).
 *
 * <h3>Checks (CONFIG_DEBUG_RWSEMS and lockdep, always on)</h3>
 * Releasing what the caller does not hold is a {@code bug-on}; taking a semaphore the caller
 * already holds (read or write) is a {@code bug-on} (it can deadlock against a queued writer);
 * exiting with it held is a {@code lock-leak}; sleeping on it in interrupt context is a
 * {@code bug-on}. Every operation on the count is a write step on this semaphore for
 * partial-order reduction.
 */
public final class RwSemaphore extends Footprinted implements LockHolders {
    /** One sleeping {@code struct rwsem_waiter}: on the waiter's stack in the kernel. */
    private static final class Waiter {
        final Task task;
        final boolean write;
        /** The waker granted the lock ({@code waiter->task == NULL}); written under wait_lock. */
        boolean granted;

        Waiter(Task task, boolean write) {
            this.task = task;
            this.write = write;
        }
    }

    private final String name;
    /** Tasks holding it for reading (the reader count); changed only right after a point on this semaphore. */
    private final ArrayList<Task> readers = new ArrayList<>();
    /** {@code RWSEM_WRITER_LOCKED} and its {@code owner}; changed only right after a point on this semaphore. */
    private Task writer;
    /** {@code wait_lock}: protects {@link #waitList}. */
    final Spinlock waitLock;
    /** {@code wait_list}, first come first; under {@link #waitLock}. */
    private final ArrayList<Waiter> waitList = new ArrayList<>();

    /** include/linux/rwsem.h: {@code DECLARE_RWSEM()} / {@code init_rwsem()}. */
    public RwSemaphore(String name) {
        this.name = name;
        this.waitLock = new Spinlock(name + ".wait_lock");
    }

    /** The writer, or null, without a scheduling point (reports). */
    public Task writer() {
        return writer;
    }

    /** How many tasks hold it for reading, without a scheduling point (reports). */
    public int readerCount() {
        return readers.size();
    }

    /** kernel/locking/rwsem.c: {@code down_read()}. */
    public static void downRead(RwSemaphore sem) {
        mightSleep(sem, "down_read");
        if (!tryRead(sem, "down_read")) {
            downSlowpath(sem, false, Task.TASK_UNINTERRUPTIBLE);
        }
    }

    /** kernel/locking/rwsem.c: {@code down_read_killable()}: 0, or {@code -EINTR} on a fatal signal. */
    public static int downReadKillable(RwSemaphore sem) {
        mightSleep(sem, "down_read_killable");
        return tryRead(sem, "down_read_killable") ? 0 : downSlowpath(sem, false, Task.TASK_KILLABLE);
    }

    /** kernel/locking/rwsem.c: {@code down_read_trylock()}: 1 if now held for reading. */
    public static int downReadTrylock(RwSemaphore sem) {
        checkContext(sem, "down_read_trylock");
        return tryRead(sem, "down_read_trylock") ? 1 : 0;
    }

    /** kernel/locking/rwsem.c: {@code down_write()}. */
    public static void downWrite(RwSemaphore sem) {
        mightSleep(sem, "down_write");
        if (!tryWrite(sem, "down_write")) {
            downSlowpath(sem, true, Task.TASK_UNINTERRUPTIBLE);
        }
    }

    /** kernel/locking/rwsem.c: {@code down_write_killable()}: 0, or {@code -EINTR} on a fatal signal. */
    public static int downWriteKillable(RwSemaphore sem) {
        mightSleep(sem, "down_write_killable");
        return tryWrite(sem, "down_write_killable") ? 0 : downSlowpath(sem, true, Task.TASK_KILLABLE);
    }

    /** kernel/locking/rwsem.c: {@code down_write_trylock()}: 1 if now held for writing. */
    public static int downWriteTrylock(RwSemaphore sem) {
        checkContext(sem, "down_write_trylock");
        return tryWrite(sem, "down_write_trylock") ? 1 : 0;
    }

    /**
     * kernel/locking/rwsem.c: {@code up_read()}: drop one reader; the last one, with waiters
     * queued, calls {@code rwsem_wake()}.
     */
    public static void upRead(RwSemaphore sem) {
        Runtime rt = Kernel.rt();
        Task me = rt.current();
        rt.point("up_read", sem);
        boolean wake;
        synchronized (sem) {
            if (!sem.readers.remove(me)) {
                Kernel.fail(ViolationKind.BUG_ON, "DEBUG_RWSEMS_WARN_ON(!is_rwsem_reader_owned(sem)): up_read(" + sem
                        + ") by " + me.name() + ", which does not hold it for reading");
            }
            wake = sem.readers.isEmpty() && !sem.waitList.isEmpty();
        }
        me.lockReleased(sem);
        if (wake) {
            rwsemWake(sem);
        }
    }

    /** kernel/locking/rwsem.c: {@code up_write()}: release, and wake waiters if any are queued. */
    public static void upWrite(RwSemaphore sem) {
        Runtime rt = Kernel.rt();
        Task me = rt.current();
        rt.point("up_write", sem);
        boolean wake;
        synchronized (sem) {
            if (sem.writer != me) {
                Kernel.fail(ViolationKind.BUG_ON, "DEBUG_RWSEMS_WARN_ON(sem->owner != current): up_write(" + sem + ") by "
                        + me.name() + ", which does not hold it for writing");
            }
            sem.writer = null;
            wake = !sem.waitList.isEmpty();
        }
        me.lockReleased(sem);
        if (wake) {
            rwsemWake(sem);
        }
    }

    private static void checkContext(RwSemaphore sem, String fn) {
        Task me = Kernel.current();
        if (me.inInterrupt()) {
            Kernel.fail(ViolationKind.BUG_ON, "BUG: " + fn + "(" + sem + ") in interrupt context (" + me.name() + ")");
        }
        if (me.holdsLock(sem)) {
            Kernel.fail(ViolationKind.BUG_ON, "possible recursive locking: " + fn + "(" + sem + ") by " + me.name()
                    + ", which holds it: deadlock against a queued writer");
        }
    }

    /** include/linux/kernel.h: {@code might_sleep()}, plus the context checks. */
    private static void mightSleep(RwSemaphore sem, String fn) {
        checkContext(sem, fn);
    }

    /** kernel/locking/rwsem.c: {@code rwsem_read_trylock()}: no writer and nobody queued. */
    private static boolean tryRead(RwSemaphore sem, String what) {
        Task me = Kernel.current();
        Kernel.rt().point(what, sem);
        synchronized (sem) {
            if (sem.writer != null || !sem.waitList.isEmpty()) {
                return false;
            }
            sem.readers.add(me);
        }
        me.lockAcquired(sem);
        return true;
    }

    /** kernel/locking/rwsem.c: {@code rwsem_write_trylock()}: {@code cmpxchg(count, 0, RWSEM_WRITER_LOCKED)}. */
    private static boolean tryWrite(RwSemaphore sem, String what) {
        Task me = Kernel.current();
        Kernel.rt().point(what, sem);
        synchronized (sem) {
            if (sem.writer != null || !sem.readers.isEmpty() || !sem.waitList.isEmpty()) {
                return false;
            }
            sem.writer = me;
        }
        me.lockAcquired(sem);
        return true;
    }

    /**
     * kernel/locking/rwsem.c: {@code rwsem_down_read_slowpath()} / {@code
     * rwsem_down_write_slowpath()} (v5.10, coarse: see the class comment): queue under
     * {@code wait_lock} (or take the lock there if it is free and nobody is queued), then sleep in
     * {@code state} until granted; a signal the state admits dequeues the waiter, unless the grant
     * came first.
     */
    private static int downSlowpath(RwSemaphore sem, boolean write, int state) {
        Task me = Kernel.current();
        Waiter waiter = new Waiter(me, write);
        Spinlock.spinLockIrq(sem.waitLock);
        Kernel.rt().point(write ? "rwsem_down_write_slowpath" : "rwsem_down_read_slowpath", sem);
        boolean took = false;
        synchronized (sem) {
            if (sem.waitList.isEmpty() && sem.writer == null && (!write || sem.readers.isEmpty())) {
                if (write) {
                    sem.writer = me;
                } else {
                    sem.readers.add(me);
                }
                took = true;
            } else {
                sem.waitList.add(waiter);
            }
        }
        Spinlock.spinUnlockIrq(sem.waitLock);
        if (took) {
            me.lockAcquired(sem);
            return 0;
        }
        for (;;) {
            Sched.setCurrentState(state);
            // smp_load_acquire(&waiter.task): the waker's grant
            Kernel.rt().pointRead("rwsem_waiter.task", sem);
            if (waiter.granted) {
                break;
            }
            if (Sched.signalPendingState(state, me)) {
                Spinlock.spinLockIrq(sem.waitLock);
                if (waiter.granted) {
                    Spinlock.spinUnlockIrq(sem.waitLock);
                    break;
                }
                Kernel.rt().point("rwsem_del_waiter", sem);
                synchronized (sem) {
                    sem.waitList.remove(waiter);
                }
                Spinlock.spinUnlockIrq(sem.waitLock);
                Sched.__setCurrentState(Task.TASK_RUNNING);
                Kernel.event("%s(%s): -EINTR", write ? "down_write" : "down_read", sem);
                // Our leaving may let the waiters behind us go (rwsem_down_*_slowpath's out_nolock path).
                rwsemWake(sem);
                return -Errno.EINTR;
            }
            Sched.waitingFor("rw_semaphore " + sem + (write ? " for writing" : " for reading"),
                    sem);
            Sched.schedule();
        }
        Sched.__setCurrentState(Task.TASK_RUNNING);
        me.lockAcquired(sem);
        return 0;
    }

    /**
     * kernel/locking/rwsem.c: {@code rwsem_wake()} and {@code rwsem_mark_wake()} (coarse): under
     * {@code wait_lock}, grant the lock to the first waiter if it is a writer and the lock is free,
     * or to every queued reader if the first waiter is a reader and no writer holds it; then wake
     * the granted tasks ({@code wake_up_q()}).
     */
    private static void rwsemWake(RwSemaphore sem) {
        ArrayList<Task> woken = new ArrayList<>();
        Spinlock.spinLockIrq(sem.waitLock);
        Kernel.rt().point("rwsem_mark_wake", sem);
        synchronized (sem) {
            if (!sem.waitList.isEmpty() && sem.writer == null) {
                Waiter first = sem.waitList.get(0);
                if (first.write) {
                    if (sem.readers.isEmpty()) {
                        sem.writer = first.task;
                        first.granted = true;
                        sem.waitList.remove(0);
                        woken.add(first.task);
                    }
                } else {
                    for (int i = 0; i < sem.waitList.size(); ) {
                        Waiter w = sem.waitList.get(i);
                        if (w.write) {
                            i++;
                            continue;
                        }
                        sem.readers.add(w.task);
                        w.granted = true;
                        sem.waitList.remove(i);
                        woken.add(w.task);
                    }
                }
            }
        }
        Spinlock.spinUnlockIrq(sem.waitLock);
        for (Task t : woken) {
            Kernel.event("rwsem_wake(%s): grants %s", sem, t.name());
            Sched.wakeUpProcess(t);
        }
    }

    @Override
    public void addHolders(List<Task> out) {
        if (writer != null) {
            out.add(writer);
        }
        out.addAll(readers);
    }

    @Override
    public String lockName() {
        return "rw_semaphore " + name;
    }

    @Override
    public String toString() {
        return name;
    }
}
