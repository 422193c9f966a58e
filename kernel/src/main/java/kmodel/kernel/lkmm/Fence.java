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
    BARRIER;

    /**
     * Prefix of the configuration entries that ablate one barrier site ({@code ./kmodel barriers}):
     * {@code no-barrier:smp_mb__after_atomic@sbitmap_queue_clear} switches that barrier off, so that
     * replay tokens carry the ablation as they carry a catalog bug.
     */
    public static final String ABLATE_PREFIX = "no-barrier:";

    /** The kernel's name: {@code smp_mb}, {@code smp_mb__after_atomic}, {@code barrier}. */
    public String kernelName() {
        switch (this) {
            case MB:
                return "smp_mb";
            case RMB:
                return "smp_rmb";
            case WMB:
                return "smp_wmb";
            case MB_BEFORE_ATOMIC:
                return "smp_mb__before_atomic";
            case MB_AFTER_ATOMIC:
                return "smp_mb__after_atomic";
            case MB_AFTER_SPINLOCK:
                return "smp_mb__after_spinlock";
            default:
                return "barrier";
        }
    }

    /** A barrier site's key: {@code smp_mb__after_atomic@sbitmap_queue_clear} (barrier, kernel function). */
    public String siteKey(String site) {
        return kernelName() + "@" + site;
    }
}
