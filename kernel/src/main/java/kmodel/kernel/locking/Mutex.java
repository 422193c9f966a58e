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
 * include/linux/mutex.h, kernel/locking/mutex.c (v5.10): {@code struct mutex}, a sleeping lock
 * with an owner.
 *
 * <h2>Implementation notes</h2>
 *
 * <h3>Fields and locks</h3>
 * {@code owner} (the kernel's {@code atomic_long_t owner}: task pointer | flags) is changed only
 * by one atomic step right after a scheduling point that names this mutex ({@code cmpxchg} in the
 * kernel). {@code wait_list} is protected by {@code wait_lock}. {@link #MUTEX_FLAG_WAITERS} is
 * set by the first waiter under {@code wait_lock} and cleared by the last one; while it is set,
 * the unlock fast path fails and {@code mutex_unlock()} takes the slow path, which wakes the
 * first waiter.
 * <pre>
 *   lock-&gt;wait_lock        (__mutex_lock_common, __mutex_unlock_slowpath)
 *     p-&gt;state             (wake_up_q after the unlock, set_current_state by the waiter)
 * </pre>
 *
 * <h3>Why no wake-up is lost</h3>
 * The waiter sets its state before its last {@code __mutex_trylock()}; an unlocker releases the
 * owner before it takes {@code wait_lock} and wakes the first waiter: either the waiter's trylock
 * sees the release, or the wake-up finds it queued with its state set.
 *
 * <h3>Coarse modelling</h3>
 * Optimistic spinning (the MCS {@code osq}), {@code MUTEX_FLAG_HANDOFF} and
 * {@code MUTEX_FLAG_PICKUP} (the anti-starvation hand-off) and ww_mutexes are left out: a woken
 * waiter competes for the lock with new lockers (which the kernel allows until the hand-off
 * flag is set). The debug checks of {@code CONFIG_DEBUG_MUTEXES} and lockdep are always on:
 * unlocking a mutex one does not own is a {@code bug-on}, taking one's own mutex again is a
 * {@code bug-on} (an AA deadlock), exiting with one held is a {@code lock-leak}
 * ({@link Task#heldLocks()}), taking one in interrupt context is a {@code bug-on}.
 *
 * <h3>Partial-order reduction</h3>
 * Every operation on {@code owner} is a write step on this mutex (a failed trylock is a step of
 * its own that races with the unlock), so it is never reported as a spinlock-style acquire.
 */
public final class Mutex extends Footprinted implements LockHolders {
    /** kernel/locking/mutex.c: {@code MUTEX_FLAG_WAITERS}: non-empty wait list, unlock must issue a wakeup. */
    public static final int MUTEX_FLAG_WAITERS = 0x01;

    private final String name;
    /** The owner half of {@code owner}: the holder, or null. Changed only right after a point on this mutex. */
    private Task owner;
    /** The flag half of {@code owner} ({@link #MUTEX_FLAG_WAITERS}); changed under {@link #waitLock}. */
    private int flags;
    /** {@code wait_lock}: protects {@link #waitList}. */
    final Spinlock waitLock;
    /** {@code wait_list}: sleeping lockers, first come first; under {@link #waitLock}. */
    private final ArrayList<Task> waitList = new ArrayList<>();

    /** include/linux/mutex.h: {@code DEFINE_MUTEX()} / {@code mutex_init()}. */
    public Mutex(String name) {
        this.name = name;
        this.waitLock = new Spinlock(name + ".wait_lock");
    }

    /** The holder, or null, without a scheduling point (reports and end checks). */
    public Task owner() {
        return owner;
    }

    /** include/linux/mutex.h: {@code mutex_is_locked()}: a lockless read of {@code owner}. */
    public static boolean mutexIsLocked(Mutex lock) {
        Kernel.rt().pointRead("mutex_is_locked", lock);
        synchronized (lock) {
            return lock.owner != null;
        }
    }

    /** kernel/locking/mutex.c: {@code mutex_lock()}: sleeps uninterruptibly until the mutex is ours. */
    public static void mutexLock(Mutex lock) {
        mightSleep(lock, "mutex_lock");
        if (!mutexTrylockFast(lock)) {
            mutexLockCommon(lock, Task.TASK_UNINTERRUPTIBLE);
        }
    }

    /** kernel/locking/mutex.c: {@code mutex_lock_killable()}: 0, or {@code -EINTR} on a fatal signal. */
    public static int mutexLockKillable(Mutex lock) {
        mightSleep(lock, "mutex_lock_killable");
        if (mutexTrylockFast(lock)) {
            return 0;
        }
        return mutexLockCommon(lock, Task.TASK_KILLABLE);
    }

    /** kernel/locking/mutex.c: {@code mutex_lock_interruptible()}: 0, or {@code -EINTR} on any signal. */
    public static int mutexLockInterruptible(Mutex lock) {
        mightSleep(lock, "mutex_lock_interruptible");
        if (mutexTrylockFast(lock)) {
            return 0;
        }
        return mutexLockCommon(lock, Task.TASK_INTERRUPTIBLE);
    }

    /**
     * kernel/locking/mutex.c: {@code mutex_trylock()}: 1 if the mutex was free and is now ours.
     * Trying one's own mutex fails, as in the kernel (no check).
     */
    public static int mutexTrylock(Mutex lock) {
        Task me = Kernel.current();
        if (me.inInterrupt()) {
            Kernel.fail(ViolationKind.BUG_ON, "DEBUG_LOCKS_WARN_ON(in_interrupt()): mutex_trylock(" + lock + ") in "
                    + me.name());
        }
        return mutexTrylock(lock, me, "mutex_trylock") ? 1 : 0;
    }

    /**
     * kernel/locking/mutex.c: {@code mutex_unlock()}: the fast path ({@code cmpxchg(owner, curr,
     * 0)}) when no flag is set, else {@code __mutex_unlock_slowpath()}: release the owner, then
     * under {@code wait_lock} pick the first waiter and wake it after dropping the lock
     * ({@code wake_up_q()}). Unlocking a mutex the caller does not own is a {@code bug-on}.
     */
    public static void mutexUnlock(Mutex lock) {
        Runtime rt = Kernel.rt();
        Task me = rt.current();
        rt.point("mutex_unlock", lock);
        boolean slow;
        synchronized (lock) {
            if (lock.owner != me) {
                Kernel.fail(ViolationKind.BUG_ON, "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current): mutex_unlock("
                        + lock + ") by " + me.name() + ", which does not hold it"
                        + (lock.owner != null ? " (" + lock.owner.name() + " does)" : ""));
            }
            lock.owner = null;
            slow = lock.flags != 0;
        }
        me.lockReleased(lock);
        if (!slow) {
            return;
        }
        Spinlock.spinLock(lock.waitLock);
        Task next = lock.waitList.isEmpty() ? null : lock.waitList.get(0);
        Spinlock.spinUnlock(lock.waitLock);
        if (next != null) {
            Kernel.event("mutex_unlock(%s): wakes %s", lock, next.name());
            Sched.wakeUpProcess(next);
        }
    }

    /** include/linux/kernel.h: {@code might_sleep()} and lockdep's AA check, before a mutex_lock. */
    private static void mightSleep(Mutex lock, String fn) {
        Task me = Kernel.current();
        if (me.inInterrupt()) {
            Kernel.fail(ViolationKind.BUG_ON, "BUG: sleeping function called from invalid context: " + fn + "(" + lock
                    + ") in interrupt context (" + me.name() + ")");
        }
        if (me.holdsLock(lock)) {
            Kernel.fail(ViolationKind.BUG_ON, "possible recursive locking: " + fn + "(" + lock + ") by " + me.name()
                    + ", which holds it: AA deadlock");
        }
    }

    /** kernel/locking/mutex.c: {@code __mutex_trylock_fast()}: {@code cmpxchg(owner, 0, curr)}, no flags set. */
    private static boolean mutexTrylockFast(Mutex lock) {
        Task me = Kernel.current();
        Kernel.rt().point("mutex_lock", lock);
        synchronized (lock) {
            if (lock.owner != null || lock.flags != 0) {
                return false;
            }
            lock.owner = me;
        }
        me.lockAcquired(lock);
        return true;
    }

    /** kernel/locking/mutex.c: {@code __mutex_trylock()}: take the owner if there is none (flags kept). */
    private static boolean mutexTrylock(Mutex lock, Task me, String what) {
        Kernel.rt().point(what, lock);
        synchronized (lock) {
            if (lock.owner != null) {
                return false;
            }
            lock.owner = me;
        }
        me.lockAcquired(lock);
        return true;
    }

    /**
     * kernel/locking/mutex.c: {@code __mutex_lock_common()} (v5.10), without optimistic spinning
     * and hand-off: queue under {@code wait_lock}, then loop: trylock, check for a signal the
     * sleep {@code state} admits, drop {@code wait_lock}, sleep, set the state, trylock again.
     */
    private static int mutexLockCommon(Mutex lock, int state) {
        Task me = Kernel.current();
        Spinlock.spinLock(lock.waitLock);
        if (mutexTrylock(lock, me, "__mutex_trylock")) {
            Spinlock.spinUnlock(lock.waitLock);
            return 0;
        }
        // __mutex_add_waiter(): the first waiter sets MUTEX_FLAG_WAITERS
        lock.waitList.add(me);
        if (lock.waitList.size() == 1) {
            Kernel.rt().point("__mutex_set_flag", lock);
            synchronized (lock) {
                lock.flags |= MUTEX_FLAG_WAITERS;
            }
        }
        Sched.setCurrentState(state);
        boolean locked = false;
        for (;;) {
            if (mutexTrylock(lock, me, "__mutex_trylock")) {
                break;
            }
            if (Sched.signalPendingState(state, me)) {
                mutexRemoveWaiter(lock, me);
                Sched.__setCurrentState(Task.TASK_RUNNING);
                Spinlock.spinUnlock(lock.waitLock);
                Kernel.event("mutex_lock(%s): -EINTR", lock);
                return -Errno.EINTR;
            }
            Spinlock.spinUnlock(lock.waitLock);
            Sched.waitingFor("mutex " + lock, lock);
            Sched.schedule();
            Sched.setCurrentState(state);
            if (mutexTrylock(lock, me, "__mutex_trylock")) {
                locked = true;
                break;
            }
            Spinlock.spinLock(lock.waitLock);
        }
        if (locked) {
            Spinlock.spinLock(lock.waitLock);
        }
        // acquired:
        Sched.__setCurrentState(Task.TASK_RUNNING);
        mutexRemoveWaiter(lock, me);
        Spinlock.spinUnlock(lock.waitLock);
        return 0;
    }

    /** kernel/locking/mutex.c: {@code mutex_remove_waiter()}; the last one clears the flags. Under wait_lock. */
    private static void mutexRemoveWaiter(Mutex lock, Task me) {
        Spinlock.lockdepAssertHeld(lock.waitLock);
        lock.waitList.remove(me);
        if (lock.waitList.isEmpty()) {
            Kernel.rt().point("__mutex_clear_flag", lock);
            synchronized (lock) {
                lock.flags &= ~MUTEX_FLAG_WAITERS;
            }
        }
    }

    @Override
    public void addHolders(List<Task> out) {
        if (owner != null) {
            out.add(owner);
        }
    }

    @Override
    public String lockName() {
        return "mutex " + name;
    }

    @Override
    public String toString() {
        return name;
    }
}
