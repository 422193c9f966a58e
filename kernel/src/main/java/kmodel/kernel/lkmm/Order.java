package kmodel.kernel.lkmm;

/**
 * The ordering class of an access (Documentation/atomic_t.txt, memory-barriers.txt): plain C,
 * {@code READ_ONCE}/{@code WRITE_ONCE} and void atomics (relaxed), acquire, release, and fully
 * ordered (value-returning atomics: {@code smp_mb()} before and after).
 */
public enum Order {
    /** A plain C access: ordered like a relaxed one here; it takes part in data races. */
    PLAIN,
    /** {@code READ_ONCE}, {@code WRITE_ONCE}, void and {@code _relaxed} atomics. */
    ONCE,
    /** {@code smp_load_acquire}, {@code _acquire} atomics, lock acquisition. */
    ACQUIRE,
    /** {@code smp_store_release}, {@code _release} atomics, unlock. */
    RELEASE,
    /** Value-returning atomics: a full barrier before and after. */
    FULL
}
