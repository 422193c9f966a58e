package kmodel.kernel.atomic;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.Kernel;

/**
 * include/asm-generic/rwonce.h, barrier.h: a shared word read and written with
 * {@code READ_ONCE}/{@code WRITE_ONCE} or {@code smp_load_acquire}/{@code smp_store_release}
 * where the kernel relies on lockless access. Each access is a scheduling point; the model is
 * sequentially consistent between points, so acquire/release add no further ordering.
 *
 * @param <T> the value type
 */
public final class Shared<T> extends Footprinted {
    private final String name;
    private T value;

    public Shared(String name, T initial) {
        this.name = name;
        this.value = initial;
    }

    /** include/asm-generic/rwonce.h: {@code READ_ONCE()}. */
    public T readOnce() {
        Kernel.rt().pointRead("READ_ONCE", this);
        synchronized (this) {
            return value;
        }
    }

    /** include/asm-generic/rwonce.h: {@code WRITE_ONCE()}. */
    public void writeOnce(T v) {
        Kernel.rt().point("WRITE_ONCE", this);
        synchronized (this) {
            value = v;
        }
    }

    /** include/asm-generic/rwonce.h: {@code smp_load_acquire()}. */
    public T loadAcquire() {
        Kernel.rt().pointRead("smp_load_acquire", this);
        synchronized (this) {
            return value;
        }
    }

    /** include/asm-generic/rwonce.h: {@code smp_store_release()}. */
    public void storeRelease(T v) {
        Kernel.rt().point("smp_store_release", this);
        synchronized (this) {
            value = v;
        }
    }

    /** A plain access by the sole owner, or under the lock that protects it (no scheduling point). */
    public synchronized T plain() {
        return value;
    }

    /** A plain store by the sole owner, or under the lock that protects it. */
    public synchronized void setPlain(T v) {
        value = v;
    }

    @Override
    public String toString() {
        return name;
    }
}
