package kmodel.kernel.atomic;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;

/**
 * include/linux/refcount.h: {@code refcount_t}. Where the kernel saturates and WARNs, the model
 * reports: an increment from zero is a {@code use-after-free}, a decrement below zero a
 * {@code double-release}.
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
        Kernel.rt().pointRead("refcount_read", this);
        synchronized (this) {
            return refs;
        }
    }

    /** The value without a scheduling point. */
    public synchronized int peek() {
        return refs;
    }

    /** include/linux/refcount.h: {@code refcount_set()}. */
    public void set(int n) {
        synchronized (this) {
            refs = n;
        }
    }

    /** include/linux/refcount.h: {@code refcount_inc()}: "addition on 0; use-after-free" when it was 0. */
    public void inc() {
        Kernel.rt().point("refcount_inc", this);
        boolean zero;
        synchronized (this) {
            zero = refs == 0;
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
        Kernel.rt().point("refcount_inc_not_zero", this);
        synchronized (this) {
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
        Kernel.rt().point("refcount_sub_and_test", this);
        int now;
        synchronized (this) {
            now = refs - n;
            if (now >= 0) {
                refs = now;
            }
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
