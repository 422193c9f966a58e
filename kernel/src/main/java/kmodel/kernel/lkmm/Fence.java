package kmodel.kernel.lkmm;

/**
 * The kernel's barriers. Approximations, each stronger than (or equal to) the LKMM's: {@code
 * smp_rmb()} raises the task's whole view (so it also orders a later store behind what earlier
 * loads saw); {@code smp_mb__before_atomic()}, {@code smp_mb__after_atomic()} and {@code
 * smp_mb__after_spinlock()} are full barriers whether or not an atomic or lock is next to them.
 */
public enum Fence {
    /** {@code smp_mb()}: a full (strong) fence. */
    MB,
    /** {@code smp_rmb()}: orders earlier loads before later loads. */
    RMB,
    /** {@code smp_wmb()}: orders earlier stores before later stores. */
    WMB,
    /** {@code smp_mb__before_atomic()} (treated as {@link #MB}). */
    MB_BEFORE_ATOMIC,
    /** {@code smp_mb__after_atomic()} (treated as {@link #MB}). */
    MB_AFTER_ATOMIC,
    /** {@code smp_mb__after_spinlock()} (treated as {@link #MB}). */
    MB_AFTER_SPINLOCK,
    /** {@code barrier()}: a compiler barrier, no ordering between CPUs. */
    BARRIER
}
