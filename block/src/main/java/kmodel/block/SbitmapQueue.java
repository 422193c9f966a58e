package kmodel.block;

import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.atomic.FlagsWord;
import kmodel.kernel.sched.Task;
import kmodel.kernel.wait.Wait;
import kmodel.kernel.wait.WaitQueueHead;

/**
 * lib/sbitmap.c (v5.10): {@code struct sbitmap_queue}, the bitmap of free request tags with the
 * wait queue that tag waiters sleep on.
 *
 * <h2>Wake-up protocol</h2>
 * <pre>
 *   waiter (blk_mq_get_tag)                   waker (sbitmap_queue_clear)
 *   sbitmap_prepare_to_wait():                clear the tag's bit
 *     atomic_inc(&amp;ws_active)                  smp_mb__after_atomic()
 *     prepare_to_wait_exclusive(UNINTERR.)    sbitmap_queue_wake_up():
 *   try the bitmap again                        if (!atomic_read(&amp;ws_active)) return;
 *   io_schedule()                               if (!waitqueue_active(&amp;ws-&gt;wait)) return;
 *                                               wake_up_nr(&amp;ws-&gt;wait, wake_batch)
 * </pre>
 * The waiter counts itself in {@code ws_active} and queues before its last look at the bitmap, and
 * the waker clears the bit before it looks at {@code ws_active}: either the waiter sees the free
 * bit, or the waker sees the waiter.
 *
 * <h2>Coarse parts</h2>
 * One wait queue instead of {@code SBQ_WAIT_QUEUES} (8) used round-robin, and
 * {@code wake_batch = 1} (the kernel's value for depths below 16: {@code clamp(depth / 8, 1,
 * 8)}), so the {@code wait_cnt} batching is not modelled. The per-cpu allocation hint is 0 and
 * the deferred clearing of v5.0+ ({@code sbitmap_deferred_clear_bit()}) is folded into the clear:
 * the allocator retries after {@code sbitmap_deferred_clear()} anyway, so a freed bit becomes
 * allocatable at the same moments.
 */
public final class SbitmapQueue {
    /** {@code sb.map[0].word}: one bit per tag (depth at most 64). */
    final FlagsWord word;
    /** {@code sb.depth}. */
    final int depth;
    /** {@code ws[0].wait}. */
    final WaitQueueHead ws;
    /** {@code ws_active}: waiters counted by {@code sbitmap_prepare_to_wait()}. */
    final AtomicT wsActive;

    SbitmapQueue(String name, int depth) {
        Kernel.BUG_ON(depth < 1 || depth > 64, "sbitmap depth " + depth + " outside [1, 64]");
        this.depth = depth;
        this.word = new FlagsWord(name + ".map");
        this.ws = new WaitQueueHead(name + ".ws");
        this.wsActive = new AtomicT(name + ".ws_active", 0);
    }

    /**
     * lib/sbitmap.c: {@code __sbitmap_get_word()} via {@code __sbitmap_queue_get()}: find a zero
     * bit (a plain read of the word), claim it with {@code test_and_set_bit_lock()}; on a lost
     * race move the hint on. Returns the bit, or -1 when none is free.
     */
    int __sbitmapQueueGet() {
        int hint = 0;
        for (;;) {
            int nr = findNextZeroBit(hint);
            if (nr >= depth) {
                return -1;
            }
            if (!Bitops.testAndSetBitLock(nr, word)) {
                return nr;
            }
            hint = nr + 1;
            if (hint >= depth - 1) {
                hint = 0;
            }
        }
    }

    private int findNextZeroBit(int from) {
        long bits = word.peek();
        for (int nr = from; nr < depth; nr++) {
            if ((bits & (1L << nr)) == 0) {
                return nr;
            }
        }
        return depth;
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_queue_clear()}: free the bit (release), then
     * {@code smp_mb__after_atomic()} and {@code sbitmap_queue_wake_up()}.
     */
    void sbitmapQueueClear(int nr) {
        Bitops.clearBitUnlock(nr, word);
        sbitmapQueueWakeUp();
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_queue_wake_up()} / {@code __sbq_wake_up()} with
     * {@code wake_batch == 1}: if anyone is waiting ({@code ws_active}, then
     * {@code waitqueue_active()}), wake one exclusive waiter.
     */
    void sbitmapQueueWakeUp() {
        if (wsActive.read() == 0) {
            return;
        }
        if (!Wait.waitqueueActive(ws)) {
            return;
        }
        Wait.__wakeUp(ws, Task.TASK_NORMAL, 1, null);
    }

    /**
     * lib/sbitmap.c: {@code sbitmap_prepare_to_wait()}: count the waiter in {@code ws_active} once,
     * then {@code prepare_to_wait_exclusive()}.
     */
    void sbitmapPrepareToWait(SbqWait sbqWait, int state) {
        if (sbqWait.sbq == null) {
            wsActive.inc();
            sbqWait.sbq = this;
        }
        Wait.prepareToWaitExclusive(ws, sbqWait.wait, state);
    }

    /** lib/sbitmap.c: {@code sbitmap_finish_wait()}: {@code finish_wait()}, then uncount. */
    void sbitmapFinishWait(SbqWait sbqWait) {
        Wait.finishWait(ws, sbqWait.wait);
        if (sbqWait.sbq != null) {
            wsActive.dec();
            sbqWait.sbq = null;
        }
    }

    /** Tags in use, without a scheduling point (checks). */
    public int peekBusy() {
        return Long.bitCount(word.peek());
    }

    /** include/linux/sbitmap.h: {@code struct sbq_wait}, declared on the waiter's stack. */
    static final class SbqWait {
        /** {@code sbq}: set once counted in {@code ws_active}. */
        SbitmapQueue sbq;
        /** {@code wait}: {@code DEFINE_SBQ_WAIT}: private = current, autoremove wake function. */
        final kmodel.kernel.wait.WaitQueueEntry wait;

        SbqWait(String name) {
            this.wait = new kmodel.kernel.wait.WaitQueueEntry(name);
            Wait.initWait(wait);
        }
    }
}
