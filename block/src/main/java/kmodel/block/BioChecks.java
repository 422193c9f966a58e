package kmodel.block;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.mm.Page;

/**
 * The block layer's shared invariant checker (Caffeine's {@code isValid()} idea), for unit tests,
 * jqwik properties and the model checker alike. Reports {@code use-after-free} for a freed bio
 * or table, and {@code bug-on} ("bio invariant: ...") for a broken structure. No scheduling
 * points.
 */
public final class BioChecks {
    private BioChecks() {
    }

    /**
     * Checks one live bio:
     * <ul>
     *   <li>it and, while it has data, the owner of its table are not freed;</li>
     *   <li>{@code __bi_cnt >= 1} and {@code __bi_remaining >= 0};</li>
     *   <li>a bio that owns its table uses at most {@code bi_max_vecs} bvecs; a fast clone
     *       ({@code BIO_CLONED}) has {@code bi_vcnt == 0};</li>
     *   <li>every bvec of the owner's table lies inside one page and is not empty;</li>
     *   <li>{@code bi_iter} lies within the owner's table: {@code bi_idx <= owner's bi_vcnt}; while
     *       {@code bi_size > 0}, {@code bi_idx} names a bvec, {@code bi_bvec_done} is inside it,
     *       and the bytes from there to the end of the table cover {@code bi_size}.</li>
     * </ul>
     */
    public static void checkInvariants(Bio bio) {
        if (bio.isFreed()) {
            Kernel.fail(ViolationKind.USE_AFTER_FREE, "bio invariant: " + bio + " is freed");
        }
        int cnt = bio.peekCnt();
        check(cnt >= 1, bio, "__bi_cnt " + cnt + " < 1 on a live bio");
        check(bio.peekRemaining() >= 0, bio, "__bi_remaining " + bio.peekRemaining() + " < 0");
        Bio owner = bio.biIoVecOwner;
        boolean cloned = Bio.bioFlagged(bio, BlkTypes.BIO_CLONED);
        if (cloned) {
            check(bio.biVcnt == 0, bio, "fast clone with bi_vcnt " + bio.biVcnt);
        }
        if (owner == bio) {
            check(bio.biVcnt >= 0 && bio.biVcnt <= bio.biMaxVecs, bio,
                    "bi_vcnt " + bio.biVcnt + " outside [0, bi_max_vecs " + bio.biMaxVecs + "]");
        }
        BvecIter it = bio.biIter;
        check(it.biSize >= 0, bio, "bi_size " + Integer.toUnsignedString(it.biSize) + " beyond the model's range");
        if (owner == null) {
            check(it.biSize == 0 || Bio.bioNoAdvanceIter(bio), bio, "bi_size " + it.biSize + " with no bvec table");
            return;
        }
        if (owner.isFreed()) {
            if (it.biSize != 0) {
                Kernel.fail(ViolationKind.USE_AFTER_FREE, "bio invariant: " + bio + " still has " + it.biSize
                        + " bytes in the bvec table of freed " + owner);
            }
            return;
        }
        BioVec[] table = owner.biIoVec;
        int vcnt = owner.biVcnt;
        for (int i = 0; i < vcnt; i++) {
            BioVec bv = table[i];
            check(bv != null && bv.bvPage != null, bio, "bvec " + i + " of " + owner + " is empty");
            check(bv.bvLen > 0 && bv.bvOffset >= 0 && bv.bvOffset + bv.bvLen <= Page.PAGE_SIZE, bio,
                    "bvec " + i + " " + bv + " not inside one page");
        }
        if (Bio.bioNoAdvanceIter(bio)) {
            return;
        }
        check(it.biIdx >= 0 && it.biIdx <= vcnt, bio, "bi_idx " + it.biIdx + " outside the table of " + vcnt);
        if (it.biSize == 0) {
            return;
        }
        check(it.biIdx < vcnt, bio, "bi_idx " + it.biIdx + " at the end of the table with bi_size " + it.biSize);
        check(it.biBvecDone >= 0 && it.biBvecDone < table[it.biIdx].bvLen, bio,
                "bi_bvec_done " + it.biBvecDone + " outside bvec " + it.biIdx + " " + table[it.biIdx]);
        long left = (long) table[it.biIdx].bvLen - it.biBvecDone;
        for (int i = it.biIdx + 1; i < vcnt; i++) {
            left += table[i].bvLen;
        }
        check(left >= it.biSize, bio, "bi_size " + it.biSize + " exceeds the " + left + " bytes left in the table");
    }

    private static void check(boolean ok, Bio bio, String what) {
        if (!ok) {
            Kernel.fail(ViolationKind.BUG_ON, "bio invariant: " + bio.describe() + ": " + what);
        }
    }

    /**
     * A queue's tag invariants: every tag in use (its bit set in the sbitmap word and not deferred
     * in {@code cleared}) has its request holding one reference, and
     * every free tag's request none; nobody waits for a tag while one is free
     * ({@code missed-wakeup}). Call when the queue is quiet (no completion or wake-up in
     * progress), e.g. at the end of a run.
     */
    public static void checkQueueQuiescent(RequestQueue q) {
        SbitmapQueue bt = q.tags.bitmapTags;
        for (int t = 0; t < q.tags.nrTags; t++) {
            Request rq = q.staticRq(t);
            boolean held = bt.peekBusy(t);
            if (held != (rq.refs() == 1)) {
                Kernel.fail(ViolationKind.BUG_ON, "tag invariant: tag " + t + (held ? " busy" : " free") + " but "
                        + rq.name() + " holds " + rq.refs() + " reference(s)");
            }
        }
        int waiters = q.peekTagWaiters();
        int busy = bt.peekBusy();
        if (waiters > 0 && busy < q.tags.nrTags) {
            Kernel.fail(ViolationKind.MISSED_WAKEUP, "tag invariant: " + waiters + " task(s) wait for a tag of " + q
                    + " while " + (q.tags.nrTags - busy) + " tag(s) are free");
        }
    }
}
