package kmodel.verification.scenarios;

import kmodel.block.Bio;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.sched.Completion;
import kmodel.fs.blockdev.Bdev;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.mm.Page;
import kmodel.mm.PageAllocator;
import kmodel.verification.Scenario;
import kmodel.verification.ScenarioRegistry;

/**
 * Scenarios of the block layer on its own: a direct read split into trimmed fast clones (the
 * mechanism of seed 001, {@code bio_clone_fast()} + {@code bio_trim()} as
 * {@code btrfs_bio_clone_partial()} does it) whose completions race in interrupt context.
 */
public final class BlockScenarios {
    /** The split boundary: btrfs cuts at BTRFS_STRIPE_LEN (64 KiB); the model's devices are small. */
    static final int STRIPE = 8192;
    /** The direct read covers device bytes [START, START + LEN): not page aligned on purpose. */
    static final int START = 1024;
    static final int LEN = 3 * Page.PAGE_SIZE;

    private BlockScenarios() {
    }

    /** Registers the block scenarios. */
    public static void registerAll(ScenarioRegistry r) {
        r.register(dioSplitClones());
        r.register(dioSplitQueueLimits());
    }

    /** A direct read into three user pages, split at stripe boundaries into fast clones. */
    static final class DioWorld {
        final Bdev bdev = Bdev.create(4, 2, 0);
        final Page[] user = new Page[3];
        /** {@code dip->pending_bios}: the submitter's reference plus one per clone in flight. */
        final AtomicT pending = new AtomicT("dip.pending_bios", 1);
        /** {@code dip->errors}. */
        final AtomicT errors = new AtomicT("dip.errors", 0);
        final Completion done = new Completion("dio.done");
        int clones;

        DioWorld() {
            this(0);
        }

        /** With {@code maxSectors > 0}, the queue's {@code max_sectors} is lowered to it. */
        DioWorld(int maxSectors) {
            if (maxSectors > 0) {
                bdev.queue().limits.maxSectors = maxSectors;
            }
            PageAllocator userMemory = new PageAllocator(1);
            for (int i = 0; i < user.length; i++) {
                user[i] = userMemory.allocPage();
                /* pinned by get_user_pages() for the whole test */
                Kernel.lifetimes().expect(user[i], 1, "user buffer");
            }
        }

        /**
         * fs/btrfs/inode.c: {@code btrfs_end_dio_bio()} reduced: record an error, put the clone,
         * and when the last clone completes, complete the direct I/O. Interrupt context.
         */
        void endDioBio(Bio clone) {
            if (clone.biStatus != BlkTypes.BLK_STS_OK) {
                errors.inc();
            }
            BlockBio.bioPut(clone);
            if (pending.decAndTest()) {
                Completion.complete(done);
            }
        }

        /**
         * fs/btrfs/inode.c: {@code btrfs_submit_direct_hook()} (v4.13) over a plain device: one bio
         * for the whole buffer, cut at every stripe boundary into fast clones trimmed to their
         * window ({@code btrfs_bio_clone_partial()}); count each clone before submitting it, drop
         * the submitter's count last, wait, then check the bytes.
         */
        void directRead() {
            Bio orig = BlockBio.bioAlloc(bdev.layer, user.length);
            orig.biDisk = bdev.disk.gendisk;
            orig.biIter.biSector = START >> BlkTypes.SECTOR_SHIFT;
            orig.biOpf = BlkTypes.REQ_OP_READ;
            for (Page p : user) {
                BlockBio.bioAddPage(orig, p, Page.PAGE_SIZE, 0);
            }
            int offset = 0;
            while (offset < LEN) {
                long at = START + offset;
                int len = (int) Math.min(STRIPE - at % STRIPE, LEN - offset);
                Bio clone = BlockBio.bioCloneFast(orig, bdev.layer.fsBioSet);
                BlockBio.bioTrim(clone, offset >> BlkTypes.SECTOR_SHIFT, len >> BlkTypes.SECTOR_SHIFT);
                clone.biEndIo = this::endDioBio;
                clone.biPrivate = this;
                pending.inc();
                clones++;
                Kernel.event("clone [%s, +%s)", offset, len);
                BlkCore.submitBio(clone);
                offset += len;
            }
            if (pending.decAndTest()) {
                Completion.complete(done);
            }
            Completion.waitForCompletionIo(done);
            /* The clones share orig's table: it may be freed only now. */
            BlockBio.bioPut(orig);
            if (errors.read() != 0) {
                Kernel.fail(ViolationKind.BUG_ON, "direct read failed on a healthy device");
            }
            for (int i = 0; i < user.length; i++) {
                bdev.expectBytes(START + (long) i * Page.PAGE_SIZE, user[i].data, 0, Page.PAGE_SIZE);
            }
        }
    }

    /**
     * {@code dio-split-queue-limits}: as {@code dio-split-clones}, on a queue whose
     * {@code max_sectors} (8 sectors, 4 KiB) is smaller than either clone, so that
     * {@code submit_bio()} splits each clone with {@code bio_split()} and chains the pieces.
     */
    static Scenario<DioWorld> dioSplitQueueLimits() {
        return Scenario.<DioWorld>named("dio-split-queue-limits",
                "the dio-split-clones read on a queue with max_sectors 8: blk_queue_split() cuts each clone again with bio_split()")
                .setup(() -> new DioWorld(8))
                .task("dio", DioWorld::directRead)
                .atEnd(w -> w.bdev.checkAtEnd())
                .outcome(w -> w.clones + " clones")
                .build();
    }

    /**
     * {@code dio-split-clones}: a 12 KiB direct read at byte 1024 is cut at the 8 KiB stripe
     * boundary into two trimmed fast clones of one bio (the second starts in the middle of a
     * bvec); their completions race, the last one completes the I/O.
     */
    static Scenario<DioWorld> dioSplitClones() {
        return Scenario.<DioWorld>named("dio-split-clones",
                "a direct read split at a stripe boundary into trimmed bio_clone_fast clones completing in any order")
                .setup(DioWorld::new)
                .task("dio", DioWorld::directRead)
                .atEnd(w -> w.bdev.checkAtEnd())
                .outcome(w -> w.clones + " clones")
                .build();
    }
}
