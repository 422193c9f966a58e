package kmodel.kernel.atomic;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.Kernel;

/**
 * include/linux/atomic.h: {@code atomic_t}. Each operation is one scheduling point followed by
 * one indivisible step.
 */
public final class AtomicT extends Footprinted {
    private final String name;
    private int counter;

    public AtomicT(String name, int initial) {
        this.name = name;
        this.counter = initial;
    }

    /** include/linux/atomic.h: {@code atomic_read()}. */
    public int read() {
        Kernel.rt().pointRead("atomic_read", this);
        synchronized (this) {
            return counter;
        }
    }

    /** The value without a scheduling point (reports and end-of-run checks). */
    public synchronized int peek() {
        return counter;
    }

    /** include/linux/atomic.h: {@code atomic_set()}. */
    public void set(int v) {
        Kernel.rt().point("atomic_set", this);
        synchronized (this) {
            counter = v;
        }
    }

    /** include/linux/atomic.h: {@code atomic_inc()}. */
    public void inc() {
        addReturn(1);
    }

    /** include/linux/atomic.h: {@code atomic_dec()}. */
    public void dec() {
        addReturn(-1);
    }

    /** include/linux/atomic.h: {@code atomic_add_return()}. */
    public int addReturn(int delta) {
        Kernel.rt().point("atomic_add_return", this);
        synchronized (this) {
            counter += delta;
            return counter;
        }
    }

    /** include/linux/atomic.h: {@code atomic_inc_return()}. */
    public int incReturn() {
        return addReturn(1);
    }

    /** include/linux/atomic.h: {@code atomic_dec_return()}. */
    public int decReturn() {
        return addReturn(-1);
    }

    /** include/linux/atomic.h: {@code atomic_dec_and_test()}: true when the new value is 0. */
    public boolean decAndTest() {
        return addReturn(-1) == 0;
    }

    /** include/linux/atomic.h: {@code atomic_add_unless(v, a, u)}: adds unless the value is {@code u}; true if it added. */
    public boolean addUnless(int a, int u) {
        Kernel.rt().point("atomic_add_unless", this);
        synchronized (this) {
            if (counter == u) {
                return false;
            }
            counter += a;
            return true;
        }
    }

    /** include/linux/atomic.h: {@code atomic_cmpxchg()}: returns the old value. */
    public int cmpxchg(int expect, int update) {
        Kernel.rt().point("atomic_cmpxchg", this);
        synchronized (this) {
            int old = counter;
            if (old == expect) {
                counter = update;
            }
            return old;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
