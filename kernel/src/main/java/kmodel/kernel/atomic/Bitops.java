package kmodel.kernel.atomic;

import kmodel.kernel.Kernel;

/**
 * include/asm-generic/bitops/atomic.h, lock.h, non-atomic.h: bit operations on a
 * {@link FlagsWord}. Every atomic operation is one scheduling point followed by one indivisible
 * read-modify-write; {@code _lock}/{@code _unlock} variants have acquire/release semantics, which
 * the sequentially consistent model gives every operation anyway.
 */
public final class Bitops {
    private Bitops() {
    }

    private static long mask(int nr) {
        return 1L << nr;
    }

    /** include/asm-generic/bitops/non-atomic.h: {@code test_bit()}. */
    public static boolean testBit(int nr, FlagsWord w) {
        Kernel.rt().pointRead("test_bit", w);
        synchronized (w) {
            return (w.bits & mask(nr)) != 0;
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code set_bit()}. */
    public static void setBit(int nr, FlagsWord w) {
        Kernel.rt().point("set_bit", w);
        synchronized (w) {
            w.bits |= mask(nr);
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code clear_bit()}. */
    public static void clearBit(int nr, FlagsWord w) {
        Kernel.rt().point("clear_bit", w);
        synchronized (w) {
            w.bits &= ~mask(nr);
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code test_and_set_bit()}: returns the old bit. */
    public static boolean testAndSetBit(int nr, FlagsWord w) {
        Kernel.rt().point("test_and_set_bit", w);
        synchronized (w) {
            boolean old = (w.bits & mask(nr)) != 0;
            w.bits |= mask(nr);
            return old;
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code test_and_clear_bit()}: returns the old bit. */
    public static boolean testAndClearBit(int nr, FlagsWord w) {
        Kernel.rt().point("test_and_clear_bit", w);
        synchronized (w) {
            boolean old = (w.bits & mask(nr)) != 0;
            w.bits &= ~mask(nr);
            return old;
        }
    }

    /** include/asm-generic/bitops/lock.h: {@code test_and_set_bit_lock()} (acquire). */
    public static boolean testAndSetBitLock(int nr, FlagsWord w) {
        Kernel.rt().point("test_and_set_bit_lock", w);
        synchronized (w) {
            boolean old = (w.bits & mask(nr)) != 0;
            w.bits |= mask(nr);
            return old;
        }
    }

    /** include/asm-generic/bitops/lock.h: {@code clear_bit_unlock()} (release). */
    public static void clearBitUnlock(int nr, FlagsWord w) {
        Kernel.rt().point("clear_bit_unlock", w);
        synchronized (w) {
            w.bits &= ~mask(nr);
        }
    }

    /**
     * include/asm-generic/bitops/lock.h: {@code clear_bit_unlock_is_negative_byte()}: clears bit
     * {@code nr} with release semantics and, in the same atomic step, reports whether bit 7 of the
     * same byte is set. {@code unlock_page()} relies on it: PG_waiters is bit 7, PG_locked bit 0.
     */
    public static boolean clearBitUnlockIsNegativeByte(int nr, FlagsWord w) {
        Kernel.rt().point("clear_bit_unlock_is_negative_byte", w);
        synchronized (w) {
            w.bits &= ~mask(nr);
            int byteBase = nr & ~7;
            return (w.bits & mask(byteBase + 7)) != 0;
        }
    }

    /** include/asm-generic/bitops/non-atomic.h: {@code __set_bit()}, for words the caller owns. */
    public static void __setBit(int nr, FlagsWord w) {
        synchronized (w) {
            w.bits |= mask(nr);
        }
    }

    /** include/asm-generic/bitops/non-atomic.h: {@code __clear_bit()}, for words the caller owns. */
    public static void __clearBit(int nr, FlagsWord w) {
        synchronized (w) {
            w.bits &= ~mask(nr);
        }
    }

    /**
     * include/linux/compiler.h: {@code READ_ONCE()} of a whole word (the loads of
     * {@code find_next_zero_bit()}, or a test of an {@code unsigned long} for zero): one read point.
     */
    public static long readWord(FlagsWord w) {
        Kernel.rt().pointRead("READ_ONCE", w);
        synchronized (w) {
            return w.bits;
        }
    }

    /** arch/x86/include/asm/cmpxchg.h: {@code xchg()} on an {@code unsigned long}: returns the old value. */
    public static long xchg(FlagsWord w, long value) {
        Kernel.rt().point("xchg", w);
        synchronized (w) {
            long old = w.bits;
            w.bits = value;
            return old;
        }
    }

    /** arch/x86/include/asm/cmpxchg.h: {@code cmpxchg()} on an {@code unsigned long}: returns the old value. */
    public static long cmpxchg(FlagsWord w, long expect, long update) {
        Kernel.rt().point("cmpxchg", w);
        synchronized (w) {
            long old = w.bits;
            if (old == expect) {
                w.bits = update;
            }
            return old;
        }
    }
}
