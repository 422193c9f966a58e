package kmodel.kernel.atomic;

import kmodel.kernel.race.HappensBefore;

/**
 * A field the kernel reads and writes with plain C accesses (no {@code READ_ONCE}, no atomics),
 * relying on a lock or on being the sole owner. Not a scheduling point. Each access is checked for
 * data races ({@code data-race}): a plain access that conflicts with another (one a write) not
 * ordered with it by happens-before ({@link HappensBefore}). A read the kernel does without the
 * lock on purpose, knowing it may race, is {@link #racy()} (the kernel's {@code data_race()}
 * annotation, or a racy read KCSAN would report), and is not checked. Under {@code --memory-model
 * lkmm} {@link #get()} and {@link #racy()} may read any store the task's view allows, as every
 * tracked load does.
 *
 * @param <T> the value type
 */
@SuppressWarnings("unchecked") // the memory hands back what this location stored: a T
public final class Plain<T> {
    private final String name;
    private T value;
    private final HappensBefore.History history = new HappensBefore.History();

    public Plain(String name, T initial) {
        this.name = name;
        this.value = initial;
    }

    /** A plain read ({@code x}). */
    public T get() {
        HappensBefore hb = HappensBefore.current();
        if (hb != null) {
            hb.access(history, name, false);
        }
        kmodel.kernel.sched.Runtime rt = kmodel.kernel.Kernel.rtOrNull();
        return rt == null ? value : (T) rt.loadRef(this, value, kmodel.kernel.lkmm.Order.PLAIN);
    }

    /** A plain write ({@code x = v}). */
    public void set(T v) {
        HappensBefore hb = HappensBefore.current();
        if (hb != null) {
            hb.access(history, name, true);
        }
        kmodel.kernel.sched.Runtime rt = kmodel.kernel.Kernel.rtOrNull();
        if (rt != null) {
            rt.storeRef(this, value, v, kmodel.kernel.lkmm.Order.PLAIN);
        }
        value = v;
    }

    /**
     * include/linux/compiler.h: {@code data_race(x)}: a read that may race on purpose, not checked
     * for data races. Still a plain load: under {@code --memory-model lkmm} it may read any store
     * the task's view allows (so that a barrier meant to order it can be shown missing, as
     * {@code io_cqring_events()}'s read of {@code cached_cq_tail} is by {@code cq-ev-posted-no-mb}).
     */
    public T racy() {
        kmodel.kernel.sched.Runtime rt = kmodel.kernel.Kernel.rtOrNull();
        return rt == null ? value : (T) rt.loadRef(this, value, kmodel.kernel.lkmm.Order.PLAIN);
    }

    @Override
    public String toString() {
        return name;
    }
}
