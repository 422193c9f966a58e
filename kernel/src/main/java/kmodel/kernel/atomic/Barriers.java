package kmodel.kernel.atomic;

import kmodel.kernel.Kernel;
import kmodel.kernel.lkmm.Fence;

/**
 * include/asm-generic/barrier.h: the kernel's CPU barriers as calls, placed in the model where
 * the kernel has them. Under sequential consistency (the default memory model) each is a no-op
 * and not a scheduling point; under the LKMM approximation the runtime applies the {@link Fence}
 * to the running task's view ({@link kmodel.kernel.sched.Runtime#fence}).
 *
 * <p>Each call names the kernel function it sits in ({@code site}), so that barrier ablation and
 * {@code xref} can list barrier sites: {@code Barriers.smpMbAfterAtomic("unlock_page")}.
 */
public final class Barriers {
    private Barriers() {
    }

    /** include/asm-generic/barrier.h: {@code smp_mb()}: a full barrier. */
    public static void smpMb(String site) {
        Kernel.rt().fence(Fence.MB, site);
    }

    /** include/asm-generic/barrier.h: {@code smp_rmb()}: orders earlier loads before later loads. */
    public static void smpRmb(String site) {
        Kernel.rt().fence(Fence.RMB, site);
    }

    /** include/asm-generic/barrier.h: {@code smp_wmb()}: orders earlier stores before later stores. */
    public static void smpWmb(String site) {
        Kernel.rt().fence(Fence.WMB, site);
    }

    /** include/asm-generic/barrier.h: {@code smp_mb__before_atomic()}. */
    public static void smpMbBeforeAtomic(String site) {
        Kernel.rt().fence(Fence.MB_BEFORE_ATOMIC, site);
    }

    /** include/asm-generic/barrier.h: {@code smp_mb__after_atomic()}. */
    public static void smpMbAfterAtomic(String site) {
        Kernel.rt().fence(Fence.MB_AFTER_ATOMIC, site);
    }

    /** include/linux/spinlock.h: {@code smp_mb__after_spinlock()}. */
    public static void smpMbAfterSpinlock(String site) {
        Kernel.rt().fence(Fence.MB_AFTER_SPINLOCK, site);
    }

    /** include/linux/compiler.h: {@code barrier()}: a compiler barrier, no ordering between CPUs. */
    public static void barrier(String site) {
        Kernel.rt().fence(Fence.BARRIER, site);
    }
}
