package kmodel.iouring;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Footprinted;

/**
 * include/linux/percpu-refcount.h, lib/percpu-refcount.c (v5.10): {@code struct percpu_ref},
 * modelled in its atomic mode throughout: one counter, a {@code __PERCPU_REF_DEAD} flag set by
 * {@link #kill}, and the release function called by the put that drops the count to zero. The
 * per-CPU fast path only changes how the count is kept until the kill switches the ref to atomic
 * mode (after an RCU grace period); what the owners may rely on is the same, so the model keeps
 * the atomic counter from the start.
 *
 * <p>Each operation is one scheduling point on the ref followed by one indivisible step.
 * Checks the kernel makes with WARN (and the model as {@code bug-on}): killing twice. A get on a
 * ref whose count already reached zero (its owner may be freed) is a {@code use-after-free}; a
 * put below zero a {@code double-release}.
 */
public final class PercpuRef extends Footprinted {
    /** {@code percpu_ref_func_t}: called when the count reaches zero. */
    public interface Release {
        /** Runs in the context of the task that dropped the last reference. */
        void release(PercpuRef ref);
    }

    private final String name;
    private final Release release;
    private long count;
    private boolean dead;

    /** lib/percpu-refcount.c: {@code percpu_ref_init()}: one reference (the initial one), alive. */
    public PercpuRef(String name, Release release) {
        this.name = name;
        this.release = release;
        this.count = 1;
    }

    /** The count without a scheduling point (checks, reports). */
    public synchronized long peek() {
        return count;
    }

    /** include/linux/percpu-refcount.h: {@code percpu_ref_get()}. */
    public void get() {
        getMany(1);
    }

    /** include/linux/percpu-refcount.h: {@code percpu_ref_get_many()}. */
    public void getMany(long nr) {
        Kernel.rt().point("percpu_ref_get", this);
        boolean zero;
        synchronized (this) {
            zero = count == 0;
            count += nr;
        }
        if (zero) {
            Kernel.fail(ViolationKind.USE_AFTER_FREE, "percpu_ref " + name + ": get after the count reached zero");
        }
    }

    /**
     * include/linux/percpu-refcount.h: {@code percpu_ref_tryget_many()} (atomic mode:
     * {@code atomic_long_add_unless(&ref->count, nr, 0)}): fails only once the count is zero;
     * a dying ref is still tried.
     */
    public boolean tryGetMany(long nr) {
        Kernel.rt().point("percpu_ref_tryget", this);
        synchronized (this) {
            if (count == 0) {
                return false;
            }
            count += nr;
            return true;
        }
    }

    /** include/linux/percpu-refcount.h: {@code percpu_ref_tryget()}. */
    public boolean tryGet() {
        return tryGetMany(1);
    }

    /** include/linux/percpu-refcount.h: {@code percpu_ref_put()}. */
    public void put() {
        putMany(1);
    }

    /**
     * include/linux/percpu-refcount.h: {@code percpu_ref_put_many()}: the put that reaches zero
     * calls the release function.
     */
    public void putMany(long nr) {
        Kernel.rt().point("percpu_ref_put", this);
        long now;
        synchronized (this) {
            now = count - nr;
            if (now >= 0) {
                count = now;
            }
        }
        if (now < 0) {
            Kernel.fail(ViolationKind.DOUBLE_RELEASE, "percpu_ref " + name + ": put below zero");
        }
        if (now == 0) {
            Kernel.event("percpu_ref %s: released", name);
            release.release(this);
        }
    }

    /**
     * lib/percpu-refcount.c: {@code percpu_ref_kill()} ({@code percpu_ref_kill_and_confirm(ref,
     * NULL)}): mark it dead (WARN if it already is) and drop the initial reference.
     */
    public void kill() {
        Kernel.rt().point("percpu_ref_kill", this);
        boolean wasDead;
        synchronized (this) {
            wasDead = dead;
            dead = true;
        }
        Kernel.WARN_ON(wasDead, "percpu_ref_kill() called more than once on " + name);
        Kernel.event("percpu_ref_kill(%s)", name);
        putMany(1);
    }

    /** include/linux/percpu-refcount.h: {@code percpu_ref_is_dying()}: a read of the flag. */
    public boolean isDying() {
        Kernel.rt().pointRead("percpu_ref_is_dying", this);
        synchronized (this) {
            return dead;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
