package kmodel.kernel.atomic;

import kmodel.kernel.sched.Footprinted;

/**
 * An {@code unsigned long} flags word, such as {@code page->flags} or {@code bio->bi_flags},
 * operated on by {@link Bitops}. Atomic operations are scheduling points; the non-atomic
 * {@code __} variants are for words the caller owns exclusively.
 */
public final class FlagsWord extends Footprinted {
    private final String name;
    /** The bits. Read and written only through {@link Bitops} (each call one atomic step). */
    long bits;

    public FlagsWord(String name) {
        this.name = name;
    }

    /** The raw value without a scheduling point (debug output and end-of-run checks). */
    public long peek() {
        return bits;
    }

    /** Resets the word (a freed page handed out again); no other task may see it. */
    public void reset(long value) {
        kmodel.kernel.sched.Runtime rt = kmodel.kernel.Kernel.rtOrNull();
        if (rt != null) {
            rt.storeLong(this, bits, value, kmodel.kernel.lkmm.Order.PLAIN); // a plain store by the sole owner
        }
        bits = value;
    }

    @Override
    public String toString() {
        return name;
    }
}
