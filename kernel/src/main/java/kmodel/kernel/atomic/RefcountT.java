package kmodel.kernel.atomic;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.lkmm.Fence;
import kmodel.kernel.lkmm.Order;
import kmodel.kernel.sched.Runtime;

/**
 * include/linux/refcount.h: {@code refcount_t}. Where the kernel saturates and WARNs, the model
 * reports: an increment from zero is a {@code use-after-free}, a decrement below zero a
 * {@code double-release}.
 *
 * <h2>Ordering (include/linux/refcount.h, v5.10)</h2>
 * "The increments are fully relaxed; these will not provide ordering." {@code refcount_inc()} is
 * {@code atomic_fetch_add_relaxed()}, {@code refcount_inc_not_zero()} an
 * {@code atomic_try_cmpxchg_relaxed()} loop: unordered. {@code refcount_dec_and_test()} /
 * {@code refcount_sub_and_test()}: {@code atomic_fetch_sub_release()}, and on reaching zero
 * {@code smp_acquire__after_ctrl_dep()}: RELEASE, plus ACQUIRE on success, so the freeing task
 * sees every earlier holder's accesses. Under {@code sc} none of this changes anything.
 */
public final class RefcountT extends Footprinted {
    private final String name;
    private int refs;

    public RefcountT(String name, int initial) {
        this.name = name;
        this.refs = initial;
    }

    /** include/linux/refcount.h: {@code refcount_read()}. */
    public int read() {
        Runtime rt = Kernel.rt();
        rt.pointRead("refcount_read", this);
        synchronized (this) {
            return (int) rt.loadLong(this, refs, Order.ONCE); // atomic_read(): unordered
        }
    }

    /** The value without a scheduling point. */
    public synchronized int peek() {
        return refs;
    }

    /** include/linux/refcount.h: {@code refcount_set()}. */
    public void set(int n) {
        Runtime rt = Kernel.rtOrNull();
        synchronized (this) {
            if (rt != null) {
                rt.storeLong(this, refs, n, Order.ONCE); // atomic_set(): unordered
            }
            refs = n;
        }
    }

    /** include/linux/refcount.h: {@code refcount_inc()}: "addition on 0; use-after-free" when it was 0. */
    public void inc() {
        Runtime rt = Kernel.rt();
        rt.point("refcount_inc", this);
        boolean zero;
        synchronized (this) {
            zero = refs == 0;
            rt.rmwLong(this, refs, refs + 1, Order.ONCE, !zero); // relaxed
            if (!zero) {
                refs++;
            }
        }
        if (zero) {
            Kernel.fail(ViolationKind.USE_AFTER_FREE, "refcount_t " + name + ": addition on 0; use-after-free");
        }
    }

    /** include/linux/refcount.h: {@code refcount_inc_not_zero()}. */
    public boolean incNotZero() {
        Runtime rt = Kernel.rt();
        rt.point("refcount_inc_not_zero", this);
        synchronized (this) {
            rt.rmwLong(this, refs, refs + 1, Order.ONCE, refs != 0); // relaxed
            if (refs == 0) {
                return false;
            }
            refs++;
            return true;
        }
    }

    /** include/linux/refcount.h: {@code refcount_dec_and_test()}: true when this dropped the last reference. */
    public boolean decAndTest() {
        return subAndTest(1);
    }

    /** include/linux/refcount.h: {@code refcount_sub_and_test()}. */
    public boolean subAndTest(int n) {
        Runtime rt = Kernel.rt();
        rt.point("refcount_sub_and_test", this);
        int now;
        synchronized (this) {
            now = refs - n;
            rt.rmwLong(this, refs, now, Order.RELEASE, now >= 0); // atomic_fetch_sub_release()
            if (now >= 0) {
                refs = now;
            }
        }
        if (now == 0) {
            rt.fence(Fence.RMB, "refcount_sub_and_test"); // smp_acquire__after_ctrl_dep(): ACQUIRE on success
        }
        if (now < 0) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "refcount_t " + name + ": underflow; use-after-free");
        }
        return now == 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
