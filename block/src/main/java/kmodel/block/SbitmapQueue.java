package kmodel.block;

import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Barriers;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.atomic.FlagsWord;
import kmodel.kernel.locking.Spinlock;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueEntry;
import kmodel.kernel.wait.WaitQueueHead;

/**
 * lib/sbitmap.c and include/linux/sbitmap.h (v5.10): {@code struct sbitmap_queue}, the scalable
 * bitmap of free request tags and the wait queues that tag waiters sleep on.
 *
 * <h2>The bitmap</h2>
 * {@code sbitmap_init_node()} with {@code shift = -1} (as {@code bt_alloc()} asks) spreads the
 * bits over several words: {@code shift = ilog2(BITS_PER_LONG)}, lowered while
 * {@code (4U << shift) > depth} (for depths of 4 and more), so depth 2 is one word of 2 bits,
 * depth 4 four words of 1 bit, depth 16 four words of 4 bits, depth 32 four words of 8 bits. A
 * freed tag is not cleared in {@code word} but set in the word's {@code cleared}
 * ({@code sbitmap_deferred_clear_bit()}, v5.0+); an allocator that finds a word full moves the
 * cleared bits back under {@code swap_lock} ({@code sbitmap_deferred_clear()}) and tries again
 * before it gives up. A tag is therefore in use while its bit is set in {@code word} and not in
 * {@code cleared}.
 *
 * <h2>Wake-up protocol</h2>
 * <pre>
 *   waiter (blk_mq_get_tag)                     waker (sbitmap_queue_clear)
 *   ws = bt_wait_ptr(): ws[hctx-&gt;wait_index++]  set_bit(nr, &amp;map[i].cleared)
 *   sbitmap_prepare_to_wait(ws):                smp_mb__after_atomic()
 *     atomic_inc(&amp;ws_active) (once)             sbitmap_queue_wake_up() = while (__sbq_wake_up());
 *     prepare_to_wait_exclusive(UNINTERR.)      __sbq_wake_up():
 *   try the bitmap again                          ws = sbq_wake_ptr(): NULL if !ws_active, else the
 *   io_schedule()                                   first active ws from wake_index (wake_index moved there)
 *   sbitmap_finish_wait(ws): finish_wait,         if (--ws-&gt;wait_cnt &lt;= 0):
 *     atomic_dec(&amp;ws_active)                        cmpxchg(wait_cnt, old, wake_batch) won:
 *   next ws = bt_wait_ptr(), loop                       wake_index++, wake_up_nr(ws, wake_batch)
 *                                                     lost: return true (try again)
 * </pre>
 * The waiter counts itself in {@code ws_active} and queues before its last look at the bitmap; the
 * waker frees the bit before it looks at {@code ws_active}: either the waiter sees the free bit,
 * or the waker sees the waiter. Each wait queue wakes a batch of {@code wake_batch} waiters for
 * every {@code wake_batch} tags freed while it is the queue at {@code wake_index}; the batch is
 * small enough ({@code sbq_calc_wake_batch()}: {@code depth / SBQ_WAIT_QUEUES}, clamped to [1, 8])
 * that the tags in flight when a waiter sleeps wake every queue in turn.
 *
 * <h2>Coarse parts</h2>
 * The per-cpu {@code alloc_hint} is 0 on every CPU (the kernel seeds it randomly and moves it to
 * the last freed or allocated bit), so allocation scans from word 0, bit 0; no round-robin
 * allocation, no shallow gets ({@code min_shallow_depth} stays {@code UINT_MAX}), no resize and
 * no {@code sbitmap_queue_wake_all()}. The number of wait queues is {@code SBQ_WAIT_QUEUES} (8)
 * unless the Kconfig option {@link BlockOptions#SBQ_WAIT_QUEUES} scales it down (1, 2 or 4), as
 * {@code PAGE_WAIT_TABLE_SIZE} scales the page wait table: with one queue, depth 2 already gives
 * {@code wake_batch = 2}, where the kernel's 8 queues need depth 16.
 */
public final class SbitmapQueue {
    /** include/linux/sbitmap.h: {@code SBQ_WAIT_QUEUES}. */
    public static final int SBQ_WAIT_QUEUES = 8;
    /** include/linux/sbitmap.h: {@code SBQ_WAKE_BATCH}. */
    public static final int SBQ_WAKE_BATCH = 8;
    /** include/asm-generic/bitsperlong.h: {@code BITS_PER_LONG}. */
    static final int BITS_PER_LONG = 64;

    /** include/linux/sbitmap.h: {@code struct sbitmap_word}. */
    static final class SbitmapWord {
        /** {@code depth}: bits used in {@code word} and {@code cleared}; set up once. */
        final int depth;
        /**
         * {@code word}: a set bit is allocated (or freed but still deferred in {@code cleared}).
         * Bits are taken with {@code test_and_set_bit_lock()}; bits go back only by
         * {@code sbitmap_deferred_clear()}'s {@code cmpxchg()} under {@code swap_lock}.
         */
        final FlagsWord word;
        /**
         * {@code cleared}: freed bits not yet moved back to {@code word}. Set with
         * {@code set_bit()} by whoever frees a tag (no lock); emptied with {@code xchg()} under
         * {@code swap_lock}.
         */
        final FlagsWord cleared;
        /** {@code swap_lock}: held while moving {@code cleared} into {@code word}. */
        final Spinlock swapLock;

        SbitmapWord(String name, int depth) {
            this.depth = depth;
            this.word = new FlagsWord(name + ".word");
            this.cleared = new FlagsWord(name + ".cleared");
            this.swapLock = new Spinlock(name + ".swap_lock");
        }
    }

    /** include/linux/sbitmap.h: {@code struct sbq_wait_state}. */
    static final class SbqWaitState {
        /**
         * {@code wait_cnt}: frees still to come before this queue wakes a batch; decremented by
         * {@code __sbq_wake_up()} while this is the queue it picked, reset to {@code wake_batch}
         * by the {@code atomic_cmpxchg()} winner. Starts at {@code wake_batch}.
         */
        final AtomicT waitCnt;
        /** {@code wait}: the tag waiters, exclusive, {@code TASK_UNINTERRUPTIBLE}. */
        final WaitQueueHead wait;

        SbqWaitState(String name, int wakeBatch) {
            this.waitCnt = new AtomicT(name + ".wait_cnt", wakeBatch);
            this.wait = new WaitQueueHead(name);
        }
    }

    // ---------------------------------------------------------------- struct sbitmap sb

    /** {@code sb.depth}; set up once. */
    final int depth;
    /** {@code sb.shift}: log2 of the bits per word; set up once. */
    final int shift;
    /** {@code sb.map_nr}. */
    final int mapNr;
    /** {@code sb.map}. */
    final SbitmapWord[] map;

    // ---------------------------------------------------------------- struct sbitmap_queue

    /** {@code wake_batch}: set at init ({@code sbq_calc_wake_batch()}), only read after. */
    final int wakeBatch;
    /**
     * {@code wake_index}: the queue the next {@code __sbq_wake_up()} starts looking at; moved by
     * {@code sbq_wake_ptr()} ({@code atomic_set()}) and {@code sbq_index_atomic_inc()}
     * ({@code atomic_cmpxchg()}), without a lock.
     */
    final AtomicT wakeIndex;
    /** {@code ws}: the wait queues; the model has {@link #nrWaitQueues} of them. */
    final SbqWaitState[] ws;
    /**
     * {@code ws_active}: waiters counted by {@code sbitmap_prepare_to_wait()} and not yet
     * uncounted by {@code sbitmap_finish_wait()}; {@code sbq_wake_ptr()} skips the scan at 0.
     */
    final AtomicT wsActive;
    /** {@code SBQ_WAIT_QUEUES}, or the smaller Kconfig value ({@link BlockOptions#SBQ_WAIT_QUEUES}). */
    final int nrWaitQueues;

    /**
     * lib/sbitmap.c: {@code sbitmap_queue_init_node(sbq, depth, -1, false, ...)} (v5.10):
     * {@code sbitmap_init_node()} with the default shift, {@code wake_batch} from
     * {@code sbq_calc_wake_batch()}, {@code wake_index} and {@code ws_active} 0, every
     * {@code wait_cnt} at {@code wake_batch}.
     */
    SbitmapQueue(String name, int depth) {
        Kernel.BUG_ON(depth < 1, "sbitmap depth " + depth);
        this.nrWaitQueues = (int) Kernel.config().value(BlockOptions.SBQ_WAIT_QUEUES);
        Kernel.BUG_ON(nrWaitQueues < 1 || nrWaitQueues > SBQ_WAIT_QUEUES || Integer.bitCount(nrWaitQueues) != 1,
                "SBQ_WAIT_QUEUES " + nrWaitQueues + " is not 1, 2, 4 or 8");
        int sh = 6; // ilog2(BITS_PER_LONG)
        if (depth >= 4) {
            while ((4 << sh) > depth) {
                sh--;
            }
        }
        this.shift = sh;
        this.depth = depth;
        int bitsPerWord = 1 << sh;
        this.mapNr = (depth + bitsPerWord - 1) / bitsPerWord;
        this.map = new SbitmapWord[mapNr];
        int left = depth;
        for (int i = 0; i < mapNr; i++) {
            int d = Math.min(left, bitsPerWord);
            map[i] = new SbitmapWord(name + ".map[" + i + "]", d);
            left -= d;
        }
        this.wakeBatch = sbqCalcWakeBatch(depth);
        this.wakeIndex = new AtomicT(name + ".wake_index", 0);
        this.wsActive = new AtomicT(name + ".ws_active", 0);
        this.ws = new SbqWaitState[nrWaitQueues];
        for (int i = 0; i < nrWaitQueues; i++) {
            ws[i] = new SbqWaitState(name + ".ws[" + i + "]", wakeBatch);
        }
    }

    /**
     * lib/sbitmap.c: {@code sbq_calc_wake_batch()} (v5.10): with no shallow depth
     * ({@code min_shallow_depth == UINT_MAX}) the usable depth is the depth, and
     * {@code wake_batch = clamp(depth / SBQ_WAIT_QUEUES, 1, SBQ_WAKE_BATCH)} (the model divides by
     * its number of queues).
     */
    int sbqCalcWakeBatch(int d) {
        int shallowDepth = 1 << shift; // min(1U << sb.shift, min_shallow_depth = UINT_MAX)
        int usable = (d >> shift) * shallowDepth + Math.min(d & ((1 << shift) - 1), shallowDepth);
        return Math.max(1, Math.min(usable / nrWaitQueues, SBQ_WAKE_BATCH));
    }

    /** include/linux/sbitmap.h: {@code sbq_index_inc()}: the next wait queue, wrapping. */
    int sbqIndexInc(int index) {
        return (index + 1) & (nrWaitQueues - 1);
    }

    /**
     * include/linux/sbitmap.h: {@code sbq_index_atomic_inc()}: read the index, move it on with
     * {@code atomic_cmpxchg()} (a lost race leaves it where the winner put it).
     */
    void sbqIndexAtomicInc(AtomicT index) {
        int old = index.read();
        int nw = sbqIndexInc(old);
        index.cmpxchg(old, nw);
    }

    /**
     * include/linux/sbitmap.h: {@code sbq_wait_ptr()} (via block/blk-mq-tag.h {@code bt_wait_ptr()}):
     * the wait queue at {@code *waitIndex} (the hardware context's {@code wait_index}), and move
     * that index on.
     */
    SbqWaitState sbqWaitPtr(AtomicT waitIndex) {
        SbqWaitState w = ws[waitIndex.read()];
        sbqIndexAtomicInc(waitIndex);
        return w;
    }

    // ---------------------------------------------------------------- allocation

    /**
     * lib/sbitmap.c: {@code __sbitmap_queue_get()} (v5.10) with the model's hint of 0:
     * {@code sbitmap_get(&sbq->sb, 0, false)}. Returns the bit, or -1 when none is free.
     */
    int __sbitmapQueueGet() {
        return sbitmapGet(0);
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_get()} (v5.10), not round-robin: from the hint's word, every
     * word in turn, each searched from bit 0 ({@code sbitmap_find_bit_in_index()}).
     */
    int sbitmapGet(int allocHint) {
        int index = allocHint >> shift;
        int nr = -1;
        for (int i = 0; i < mapNr; i++) {
            nr = sbitmapFindBitInIndex(index, 0);
            if (nr != -1) {
                nr += index << shift;
                break;
            }
            if (++index >= mapNr) {
                index = 0;
            }
        }
        return nr;
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_find_bit_in_index()} (v5.10): try the word; when it is full,
     * move its deferred clears back and try again; give up when there were none.
     */
    int sbitmapFindBitInIndex(int index, int allocHint) {
        int nr;
        do {
            nr = __sbitmapGetWord(map[index], allocHint, true);
            if (nr != -1) {
                break;
            }
            if (!sbitmapDeferredClear(index)) {
                break;
            }
        } while (true);
        return nr;
    }

    /**
     * lib/sbitmap.c: {@code __sbitmap_get_word()} (v5.10): {@code find_next_zero_bit()} (one read
     * of the word), claim the bit with {@code test_and_set_bit_lock()}; on a lost race move the
     * hint past it (back to 0 near the end). A hint of 0 does not wrap.
     */
    static int __sbitmapGetWord(SbitmapWord w, int hint, boolean wrap) {
        wrap = wrap && hint != 0;
        int nr;
        while (true) {
            nr = findNextZeroBit(Bitops.readWord(w.word), w.depth, hint);
            if (nr >= w.depth) {
                if (hint != 0 && wrap) {
                    hint = 0;
                    continue;
                }
                return -1;
            }
            if (!Bitops.testAndSetBitLock(nr, w.word)) {
                break;
            }
            hint = nr + 1;
            if (hint >= w.depth - 1) {
                hint = 0;
            }
        }
        return nr;
    }

    /** include/asm-generic/bitops/find.h: {@code find_next_zero_bit()} over a word read once. */
    private static int findNextZeroBit(long bits, int size, int from) {
        for (int nr = from; nr < size; nr++) {
            if ((bits & (1L << nr)) == 0) {
                return nr;
            }
        }
        return size;
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_deferred_clear()} (v5.10): under {@code swap_lock}, if the
     * word has deferred clears, take them ({@code xchg(&cleared, 0)}) and clear them in
     * {@code word} ({@code cmpxchg()} loop). True if any were moved: the caller tries the word
     * again; false, it gives up on the word.
     *
     * <p>v5.10 races here (fixed in v6.11-rc1 by 72d04bdcf3f7, "sbitmap: fix io hung due to race on
     * sbitmap_word::cleared"): allocator A finds the word full, allocator B moves the cleared
     * bits back, then A finds {@code cleared} empty and gives up on a word with free bits; a tag
     * waiter that gives up so sleeps, and with {@code wake_batch > 1} the frees still to come may
     * not reach its queue's {@code wait_cnt} (scenario {@code finding-sbitmap-cleared-race}). With
     * {@link BlockOptions#SBITMAP_CLEARED_RACE_FIX} (default n) an empty {@code cleared} answers
     * whether the word has a free bit now, as the fix does.
     */
    boolean sbitmapDeferredClear(int index) {
        SbitmapWord w = map[index];
        boolean ret = false;
        long flags = Spinlock.spinLockIrqsave(w.swapLock);
        if (Bitops.readWord(w.cleared) == 0) {
            if (Kernel.config().enabled(BlockOptions.SBITMAP_CLEARED_RACE_FIX)) {
                /*
                 * 72d04bdcf3f7 (v6.11-rc1): another allocator may have moved the cleared bits back
                 * since this one found the word full: retry if the word has a free bit now.
                 */
                long wordMask = w.depth == 64 ? ~0L : (1L << w.depth) - 1;
                ret = (Bitops.readWord(w.word) & wordMask) != wordMask;
            }
        } else {
            long mask = Bitops.xchg(w.cleared, 0);
            long val;
            do {
                Kernel.rt().loopStep("sbitmap_deferred_clear");
                val = Bitops.readWord(w.word);
            } while (Bitops.cmpxchg(w.word, val, val & ~mask) != val);
            ret = true;
        }
        Spinlock.spinUnlockIrqrestore(w.swapLock, flags);
        return ret;
    }

    // ---------------------------------------------------------------- freeing and waking

    /**
     * lib/sbitmap.c: {@code sbitmap_queue_clear()} (v5.10): {@code smp_mb__before_atomic()} (the
     * freed request's accesses before the bit that lets it be allocated again; pairs with the
     * acquire of {@code test_and_set_bit_lock()} in {@code __sbitmap_get_word()}),
     * {@code sbitmap_deferred_clear_bit()}, {@code smp_mb__after_atomic()} (the free before the
     * look at the waiters, pairing with {@code set_current_state()} in the waiter's
     * {@code prepare_to_wait_exclusive()}: "See the comment on waitqueue_active()"), then
     * {@code sbitmap_queue_wake_up()} (the per-cpu hint update is not modelled). Bug
     * {@code sbq-clear-no-mb-after-atomic} leaves the second barrier out, as
     * {@code bt_clear_tag()} did before c38d185d4af1 ("blk-mq: Fix a race between bt_clear_tag()
     * and bt_get()").
     */
    void sbitmapQueueClear(int nr) {
        Barriers.smpMbBeforeAtomic("sbitmap_queue_clear");
        sbitmapDeferredClearBit(nr);
        if (!Kernel.bug(BlockBugs.SBQ_CLEAR_NO_MB_AFTER_ATOMIC)) {
            Barriers.smpMbAfterAtomic("sbitmap_queue_clear");
        } else {
            Kernel.event("sbitmap_queue_clear(tag %s): no smp_mb__after_atomic() (bug)", nr);
        }
        sbitmapQueueWakeUp();
    }

    /**
     * include/linux/sbitmap.h: {@code sbitmap_deferred_clear_bit()} (v5.10):
     * {@code set_bit(SB_NR_TO_BIT(sb, bitnr), &sb->map[SB_NR_TO_INDEX(sb, bitnr)].cleared)}.
     */
    void sbitmapDeferredClearBit(int bitnr) {
        Bitops.setBit(bitnr & ((1 << shift) - 1), map[bitnr >> shift].cleared);
    }

    /** lib/sbitmap.c: {@code sbitmap_queue_wake_up()} (v5.10): {@code while (__sbq_wake_up(sbq));}. */
    void sbitmapQueueWakeUp() {
        while (__sbqWakeUp()) {
            Kernel.rt().loopStep("sbitmap_queue_wake_up");
        }
    }

    /**
     * lib/sbitmap.c: {@code sbq_wake_ptr()} (v5.10): nothing when {@code ws_active} is 0; else
     * the first queue from {@code wake_index} with waiters ({@code waitqueue_active()}), moving
     * {@code wake_index} to it if it was elsewhere; null when every queue is empty.
     */
    SbqWaitState sbqWakePtr() {
        if (wsActive.read() == 0) {
            return null;
        }
        int wakeIdx = wakeIndex.read();
        for (int i = 0; i < nrWaitQueues; i++) {
            SbqWaitState w = ws[wakeIdx];
            if (Wait.waitqueueActive(w.wait)) {
                if (wakeIdx != wakeIndex.read()) {
                    wakeIndex.set(wakeIdx);
                }
                return w;
            }
            wakeIdx = sbqIndexInc(wakeIdx);
        }
        return null;
    }

    /**
     * lib/sbitmap.c: {@code __sbq_wake_up()} (v5.10): pick a queue; count this free against its
     * {@code wait_cnt} ({@code atomic_dec_return()}); when that reaches 0 or below, re-arm it with
     * {@code atomic_cmpxchg(&ws->wait_cnt, wait_cnt, wake_batch)}: the winner moves
     * {@code wake_index} on ({@code sbq_index_atomic_inc()}) and wakes a batch
     * ({@code wake_up_nr(&ws->wait, wake_batch)}); a loser returns true, so that
     * {@code sbitmap_queue_wake_up()} tries again on the queue that is current then.
     */
    boolean __sbqWakeUp() {
        SbqWaitState w = sbqWakePtr();
        if (w == null) {
            return false;
        }
        int waitCnt = w.waitCnt.decReturn();
        if (waitCnt <= 0) {
            /*
             * READ_ONCE(sbq->wake_batch): wake_batch is set at init and never changes in the model
             * (no resize), so a plain field. Pairs with the memory barrier in
             * sbitmap_queue_resize() to ensure that we see the batch size update before the wait
             * count is reset.
             */
            int batch = wakeBatch;
            Barriers.smpMbBeforeAtomic("__sbq_wake_up");
            int ret = w.waitCnt.cmpxchg(waitCnt, batch);
            if (ret == waitCnt) {
                sbqIndexAtomicInc(wakeIndex);
                Wait.__wakeUp(w.wait, Task.TASK_NORMAL, batch, null); // wake_up_nr(&ws->wait, wake_batch)
                return false;
            }
            return true;
        }
        return false;
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_prepare_to_wait()} (v5.10): count the waiter in
     * {@code ws_active} once ({@code sbq_wait->sbq} remembers it), then
     * {@code prepare_to_wait_exclusive()} on {@code ws}.
     */
    void sbitmapPrepareToWait(SbqWaitState w, SbqWait sbqWait, int state) {
        if (sbqWait.sbq == null && !Kernel.bug(BlockBugs.SBQ_WAIT_NOT_COUNTED)) {
            wsActive.inc();
            sbqWait.sbq = this;
        }
        Wait.prepareToWaitExclusive(w.wait, sbqWait.wait, state);
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_finish_wait()} (v5.10): {@code finish_wait()} on {@code ws},
     * then uncount the waiter if it was counted.
     */
    void sbitmapFinishWait(SbqWaitState w, SbqWait sbqWait) {
        Wait.finishWait(w.wait, sbqWait.wait);
        if (sbqWait.sbq != null) {
            wsActive.dec();
            sbqWait.sbq = null;
        }
    }

    // ---------------------------------------------------------------- checks (no scheduling points)

    /** Whether tag {@code nr} is in use now: set in {@code word}, not in {@code cleared}. */
    public boolean peekBusy(int nr) {
        SbitmapWord w = map[nr >> shift];
        long bit = 1L << (nr & ((1 << shift) - 1));
        return (w.word.peek() & bit) != 0 && (w.cleared.peek() & bit) == 0;
    }

    /** Tags in use now. */
    public int peekBusy() {
        int n = 0;
        for (SbitmapWord w : map) {
            n += Long.bitCount(w.word.peek() & ~w.cleared.peek());
        }
        return n;
    }

    /** Tag waiters queued now, over every wait queue. */
    public int peekWaiters() {
        int n = 0;
        for (SbqWaitState w : ws) {
            n += w.wait.peekLength();
        }
        return n;
    }

    /** {@code wake_batch}. */
    public int wakeBatch() {
        return wakeBatch;
    }

    /** {@code sb.map_nr}. */
    public int mapNr() {
        return mapNr;
    }

    /** The number of wait queues. */
    public int nrWaitQueues() {
        return nrWaitQueues;
    }

    /** {@code ws[i].wait_cnt} now. */
    public int peekWaitCnt(int i) {
        return ws[i].waitCnt.peek();
    }

    /** include/linux/sbitmap.h: {@code struct sbq_wait} ({@code DEFINE_SBQ_WAIT}), on the waiter's stack. */
    static final class SbqWait {
        /** {@code sbq}: set once the waiter is counted in {@code ws_active}. Owned by the waiter. */
        SbitmapQueue sbq;
        /** {@code wait}: {@code private = current}, {@code autoremove_wake_function}. */
        final WaitQueueEntry wait;

        SbqWait(String name) {
            this.wait = new WaitQueueEntry(name);
            Wait.initWait(wait);
        }
    }
}
