package kmodel.kernel.locking;

import java.util.List;
import kmodel.kernel.sched.Footprinted;
import kmodel.kernel.sched.LockHolders;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Task;

/**
 * include/linux/spinlock.h: {@code spinlock_t}, with its static helpers named as in the kernel.
 *
 * <p>Taking and releasing are scheduling points. A task that finds the lock held stops being
 * runnable until the holder releases it (a spin is one choice for the explorer, not a loop).
 * Sleeping while holding a spinlock, or exiting with one held, is a {@code lock-leak}.
 *
 * <p>The {@code _irq}/{@code _irqsave} variants behave like the plain ones: interrupt handlers
 * are tasks of their own that may run "on another CPU", so disabling interrupts has no effect
 * the model can observe. Lockdep's irq-safety rules are not checked (see the limitations).
 */
public final class Spinlock extends Footprinted implements LockHolders {
    private final String name;
    /** The holder, or null. Written only by the runtime inside spin_lock/spin_unlock. */
    private Task owner;

    public Spinlock(String name) {
        this.name = name;
    }

    /** The task holding the lock, or null. */
    public Task owner() {
        return owner;
    }

    /** Runtime use only: records the new holder (null on release). */
    public void acquiredBy(Task t) {
        kmodel.kernel.race.HappensBefore hb = kmodel.kernel.race.HappensBefore.ifAny();
        if (hb != null) {
            if (t == null) {
                hb.release(owner, this);
            } else {
                hb.acquire(t, this);
            }
        }
        owner = t;
    }

    /** include/linux/spinlock.h: {@code spin_lock()}. */
    public static void spinLock(Spinlock lock) {
        Kernel.rt().spinLock(lock);
    }

    /** include/linux/spinlock.h: {@code spin_unlock()}. */
    public static void spinUnlock(Spinlock lock) {
        Kernel.rt().spinUnlock(lock);
    }

    /** include/linux/spinlock.h: {@code spin_lock_irq()}. */
    public static void spinLockIrq(Spinlock lock) {
        Kernel.rt().spinLock(lock);
    }

    /** include/linux/spinlock.h: {@code spin_unlock_irq()}. */
    public static void spinUnlockIrq(Spinlock lock) {
        Kernel.rt().spinUnlock(lock);
    }

    /** include/linux/spinlock.h: {@code spin_lock_irqsave()}; the returned flags are opaque. */
    public static long spinLockIrqsave(Spinlock lock) {
        Kernel.rt().spinLock(lock);
        return 0L;
    }

    /** include/linux/spinlock.h: {@code spin_unlock_irqrestore()}. */
    public static void spinUnlockIrqrestore(Spinlock lock, long flags) {
        Kernel.rt().spinUnlock(lock);
    }

    /** include/linux/lockdep.h: {@code lockdep_assert_held()}: the caller must hold {@code lock}. */
    public static void lockdepAssertHeld(Spinlock lock) {
        Task me = Kernel.current();
        if (lock.owner != me) {
            Kernel.fail(ViolationKind.BUG_ON, "lockdep_assert_held(" + lock + ") failed in " + (me != null ? me.name() : "?"));
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
        return "spinlock " + name;
    }

    @Override
    public String toString() {
        return name;
    }
}
