package kmodel.kernel.atomic;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.Kernel;
import kmodel.kernel.lkmm.Order;
import kmodel.kernel.sched.Runtime;

/**
 * include/linux/atomic.h: {@code atomic_t}. Each operation is one scheduling point followed by
 * one indivisible step.
 *
 * <h2>Ordering (Documentation/atomic_t.txt)</h2>
 * "non-RMW operations are unordered; RMW operations that have no return value are unordered;
 * RMW operations that have a return value are fully ordered; RMW operations that are conditional
 * are unordered on FAILURE". Under {@code --memory-model lkmm} each operation passes its class to
 * the runtime ({@link Order}); under {@code sc} the classes change nothing.
 */
public final class AtomicT extends Footprinted {
    private final String name;
    /** {@code counter}: written only inside an operation's step, through the runtime's memory model. */
    private int counter;

    public AtomicT(String name, int initial) {
        this.name = name;
        this.counter = initial;
    }

    /** include/linux/atomic.h: {@code atomic_read()}: unordered. */
    public int read() {
        Runtime rt = Kernel.rt();
        rt.pointRead("atomic_read", this);
        synchronized (this) {
            return (int) rt.loadLong(this, counter, Order.ONCE);
        }
    }

    /** The value without a scheduling point (reports and end-of-run checks). */
    public synchronized int peek() {
        return counter;
    }

    /** include/linux/atomic.h: {@code atomic_set()}: unordered. */
    public void set(int v) {
        Runtime rt = Kernel.rt();
        rt.point("atomic_set", this);
        synchronized (this) {
            rt.storeLong(this, counter, v, Order.ONCE);
            counter = v;
        }
    }

    /** include/linux/atomic.h: {@code atomic_inc()}: a void RMW, unordered. */
    public void inc() {
        add(1, "atomic_inc");
    }

    /** include/linux/atomic.h: {@code atomic_dec()}: a void RMW, unordered. */
    public void dec() {
        add(-1, "atomic_dec");
    }

    /** include/linux/atomic.h: {@code atomic_add()}: a void RMW, unordered. */
    private void add(int delta, String what) {
        Runtime rt = Kernel.rt();
        rt.point(what, this);
        synchronized (this) {
            rt.rmwLong(this, counter, counter + delta, Order.ONCE, true);
            counter += delta;
        }
    }

    /** include/linux/atomic.h: {@code atomic_add_return()}: fully ordered. */
    public int addReturn(int delta) {
        Runtime rt = Kernel.rt();
        rt.point("atomic_add_return", this);
        synchronized (this) {
            rt.rmwLong(this, counter, counter + delta, Order.FULL, true);
            counter += delta;
            return counter;
        }
    }

    /** include/linux/atomic.h: {@code atomic_inc_return()}: fully ordered. */
    public int incReturn() {
        return addReturn(1);
    }

    /** include/linux/atomic.h: {@code atomic_dec_return()}: fully ordered. */
    public int decReturn() {
        return addReturn(-1);
    }

    /** include/linux/atomic.h: {@code atomic_dec_and_test()}: true when the new value is 0; fully ordered. */
    public boolean decAndTest() {
        return addReturn(-1) == 0;
    }

    /**
     * include/linux/atomic.h: {@code atomic_add_unless(v, a, u)}: adds unless the value is {@code u};
     * true if it added. Fully ordered when it adds, unordered when it does not (conditional).
     */
    public boolean addUnless(int a, int u) {
        Runtime rt = Kernel.rt();
        rt.point("atomic_add_unless", this);
        synchronized (this) {
            boolean add = counter != u;
            rt.rmwLong(this, counter, counter + a, Order.FULL, add);
            if (!add) {
                return false;
            }
            counter += a;
            return true;
        }
    }

    /**
     * include/linux/atomic.h: {@code atomic_cmpxchg()}: returns the old value. Fully ordered when
     * it stores, unordered when it fails.
     */
    public int cmpxchg(int expect, int update) {
        Runtime rt = Kernel.rt();
        rt.point("atomic_cmpxchg", this);
        synchronized (this) {
            int old = counter;
            rt.rmwLong(this, old, update, Order.FULL, old == expect);
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
