package kmodel.kernel.atomic;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.Kernel;
import kmodel.kernel.lkmm.Order;
import kmodel.kernel.sched.Runtime;

/**
 * include/asm-generic/rwonce.h, barrier.h: a shared word read and written with
 * {@code READ_ONCE}/{@code WRITE_ONCE} or {@code smp_load_acquire}/{@code smp_store_release}
 * where the kernel relies on lockless access. Each access is a scheduling point. Under
 * {@code --memory-model sc} every load reads the latest store and acquire/release add nothing;
 * under {@code lkmm} a load reads any store its task's view allows ({@code Runtime#loadRef}) and
 * the orderings are the kernel's: {@code READ_ONCE}/{@code WRITE_ONCE} unordered,
 * {@code smp_load_acquire} ACQUIRE, {@code smp_store_release} RELEASE.
 *
 * @param <T> the value type
 */
@SuppressWarnings("unchecked") // the memory hands back what this location stored: a T
public final class Shared<T> extends Footprinted {
    private final String name;
    private T value;

    public Shared(String name, T initial) {
        this.name = name;
        this.value = initial;
    }

    /** include/asm-generic/rwonce.h: {@code READ_ONCE()}. */
    public T readOnce() {
        Runtime rt = Kernel.rt();
        rt.pointRead("READ_ONCE", this);
        synchronized (this) {
            return (T) rt.loadRef(this, value, Order.ONCE); // unordered
        }
    }

    /** include/asm-generic/rwonce.h: {@code WRITE_ONCE()}. */
    public void writeOnce(T v) {
        Runtime rt = Kernel.rt();
        rt.point("WRITE_ONCE", this);
        synchronized (this) {
            rt.storeRef(this, value, v, Order.ONCE); // unordered
            value = v;
        }
    }

    /** include/asm-generic/rwonce.h: {@code smp_load_acquire()}. */
    public T loadAcquire() {
        Runtime rt = Kernel.rt();
        rt.pointRead("smp_load_acquire", this);
        synchronized (this) {
            return (T) rt.loadRef(this, value, Order.ACQUIRE); // later accesses stay after it
        }
    }

    /** include/asm-generic/rwonce.h: {@code smp_store_release()}. */
    public void storeRelease(T v) {
        Runtime rt = Kernel.rt();
        rt.point("smp_store_release", this);
        synchronized (this) {
            rt.storeRef(this, value, v, Order.RELEASE); // earlier accesses stay before it
            value = v;
        }
    }

    /** A plain access by the sole owner, or under the lock that protects it (no scheduling point). */
    public synchronized T plain() {
        Runtime rt = Kernel.rtOrNull();
        return rt == null ? value : (T) rt.loadRef(this, value, Order.PLAIN);
    }

    /** A plain store by the sole owner, or under the lock that protects it. */
    public synchronized void setPlain(T v) {
        Runtime rt = Kernel.rtOrNull();
        if (rt != null) {
            rt.storeRef(this, value, v, Order.PLAIN);
        }
        value = v;
    }

    @Override
    public String toString() {
        return name;
    }
}
