package kmodel.kernel.atomic;

import kmodel.kernel.Kernel;
import kmodel.kernel.lkmm.Order;
import kmodel.kernel.sched.Runtime;

/**
 * include/asm-generic/bitops/atomic.h, lock.h, non-atomic.h: bit operations on a
 * {@link FlagsWord}. Every atomic operation is one scheduling point followed by one indivisible
 * read-modify-write.
 *
 * <h2>Ordering (Documentation/atomic_bitops.txt)</h2>
 * As for {@code atomic_t}: {@code test_bit()} and the void RMWs ({@code set_bit()},
 * {@code clear_bit()}) are unordered; the value-returning RMWs ({@code test_and_set_bit()},
 * {@code test_and_clear_bit()}, {@code xchg()}) are fully ordered (a {@code test_and_set_bit()}
 * that finds the bit set still is: Linus Torvalds' reading, which removed the generic early return
 * that made it unordered; x86's locked instruction always was); a successful
 * {@code test_and_set_bit_lock()} is ACQUIRE and a failed one an unordered read;
 * {@code clear_bit_unlock()} and {@code clear_bit_unlock_is_negative_byte()} are RELEASE;
 * {@code cmpxchg()} is fully ordered when it stores, unordered when it fails. The non-atomic
 * {@code __} variants are plain accesses of a word the caller owns. Under
 * {@code --memory-model sc} the classes change nothing.
 */
public final class Bitops {
    private Bitops() {
    }

    private static long mask(int nr) {
        return 1L << nr;
    }

    /** One atomic RMW step on {@code w}: its new value, passed to the memory model with ordering {@code o}. */
    private static long rmw(Runtime rt, FlagsWord w, long value, Order o) {
        rt.rmwLong(w, w.bits, value, o, true);
        long old = w.bits;
        w.bits = value;
        return old;
    }

    /** include/asm-generic/bitops/non-atomic.h: {@code test_bit()}: unordered. */
    public static boolean testBit(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.pointRead("test_bit", w);
        synchronized (w) {
            return (rt.loadLong(w, w.bits, Order.ONCE) & mask(nr)) != 0;
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code set_bit()}: unordered. */
    public static void setBit(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.point("set_bit", w);
        synchronized (w) {
            rmw(rt, w, w.bits | mask(nr), Order.ONCE);
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code clear_bit()}: unordered. */
    public static void clearBit(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.point("clear_bit", w);
        synchronized (w) {
            rmw(rt, w, w.bits & ~mask(nr), Order.ONCE);
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code test_and_set_bit()}: returns the old bit; fully ordered. */
    public static boolean testAndSetBit(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.point("test_and_set_bit", w);
        synchronized (w) {
            return (rmw(rt, w, w.bits | mask(nr), Order.FULL) & mask(nr)) != 0;
        }
    }

    /** include/asm-generic/bitops/atomic.h: {@code test_and_clear_bit()}: returns the old bit; fully ordered. */
    public static boolean testAndClearBit(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.point("test_and_clear_bit", w);
        synchronized (w) {
            return (rmw(rt, w, w.bits & ~mask(nr), Order.FULL) & mask(nr)) != 0;
        }
    }

    /**
     * include/asm-generic/bitops/lock.h: {@code test_and_set_bit_lock()}: ACQUIRE if the bit was
     * clear (the lock is taken); if it was set, {@code if (READ_ONCE(*p) & mask) return 1;}, an
     * unordered read.
     */
    public static boolean testAndSetBitLock(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.point("test_and_set_bit_lock", w);
        synchronized (w) {
            boolean old = (w.bits & mask(nr)) != 0;
            rt.rmwLong(w, w.bits, w.bits | mask(nr), Order.ACQUIRE, !old);
            w.bits |= mask(nr);
            return old;
        }
    }

    /** include/asm-generic/bitops/lock.h: {@code clear_bit_unlock()}: RELEASE. */
    public static void clearBitUnlock(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.point("clear_bit_unlock", w);
        synchronized (w) {
            rmw(rt, w, w.bits & ~mask(nr), Order.RELEASE);
        }
    }

    /**
     * include/asm-generic/bitops/lock.h: {@code clear_bit_unlock_is_negative_byte()}: clears bit
     * {@code nr} with release semantics and, in the same atomic step, reports whether bit 7 of the
     * same byte is set. {@code unlock_page()} relies on it: PG_waiters is bit 7, PG_locked bit 0.
     * RELEASE ({@code atomic_long_fetch_andnot_release()} in the generic version).
     */
    public static boolean clearBitUnlockIsNegativeByte(int nr, FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.point("clear_bit_unlock_is_negative_byte", w);
        synchronized (w) {
            rmw(rt, w, w.bits & ~mask(nr), Order.RELEASE);
            int byteBase = nr & ~7;
            return (w.bits & mask(byteBase + 7)) != 0;
        }
    }

    /** include/asm-generic/bitops/non-atomic.h: {@code __set_bit()}, for words the caller owns: a plain store. */
    public static void __setBit(int nr, FlagsWord w) {
        Runtime rt = Kernel.rtOrNull();
        synchronized (w) {
            if (rt != null) {
                rt.storeLong(w, w.bits, w.bits | mask(nr), Order.PLAIN);
            }
            w.bits |= mask(nr);
        }
    }

    /** include/asm-generic/bitops/non-atomic.h: {@code __clear_bit()}, for words the caller owns: a plain store. */
    public static void __clearBit(int nr, FlagsWord w) {
        Runtime rt = Kernel.rtOrNull();
        synchronized (w) {
            if (rt != null) {
                rt.storeLong(w, w.bits, w.bits & ~mask(nr), Order.PLAIN);
            }
            w.bits &= ~mask(nr);
        }
    }

    /**
     * include/linux/compiler.h: {@code READ_ONCE()} of a whole word (the loads of
     * {@code find_next_zero_bit()}, or a test of an {@code unsigned long} for zero): one read
     * point, unordered.
     */
    public static long readWord(FlagsWord w) {
        Runtime rt = Kernel.rt();
        rt.pointRead("READ_ONCE", w);
        synchronized (w) {
            return rt.loadLong(w, w.bits, Order.ONCE);
        }
    }

    /** arch/x86/include/asm/cmpxchg.h: {@code xchg()} on an {@code unsigned long}: returns the old value; fully ordered. */
    public static long xchg(FlagsWord w, long value) {
        Runtime rt = Kernel.rt();
        rt.point("xchg", w);
        synchronized (w) {
            return rmw(rt, w, value, Order.FULL);
        }
    }

    /**
     * arch/x86/include/asm/cmpxchg.h: {@code cmpxchg()} on an {@code unsigned long}: returns the
     * old value; fully ordered when it stores, unordered when it fails.
     */
    public static long cmpxchg(FlagsWord w, long expect, long update) {
        Runtime rt = Kernel.rt();
        rt.point("cmpxchg", w);
        synchronized (w) {
            long old = w.bits;
            rt.rmwLong(w, old, update, Order.FULL, old == expect);
            if (old == expect) {
                w.bits = update;
            }
            return old;
        }
    }
}
