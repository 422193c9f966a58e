package kmodel.verification.scenarios;

import kmodel.block.Bio;
import kmodel.block.BioChecks;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.block.BlockOptions;
import kmodel.block.DiskKind;
import kmodel.fs.blockdev.Bdev;
import kmodel.fs.blockdev.BlockDev;
import kmodel.mm.File;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.sched.Completion;
import kmodel.mm.Page;
import kmodel.mm.PageAllocator;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

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
    public static void registerAll(ScenarioSet r) {
        r.register(dioSplitClones());
        r.register(dioSplitQueueLimits());
        r.register(tagWaiters());
    }

    /** Registers the block scenarios too large for the default run (checked when named, within a bound). */
    public static void registerLarge(ScenarioSet r) {
        r.register(tagWaitersBatch());
        r.register(bdevReadEod());
    }

    /** Registers the block scenarios that show model findings (they fail on the default configuration). */
    public static void registerFindings(ScenarioSet r) {
        r.register(findingSbitmapClearedRace());
    }

    // ------------------------------------------------------------------ tag waiters

    /**
     * More submitters than request tags: each submits one read of its own page of the device and
     * leaves ({@code bi_end_io} records the status and puts the bio, in interrupt context), so
     * some sleep in {@code blk_mq_get_tag()} on the sbitmap wait queues until completions, which
     * run in any order, free tags.
     */
    static final class TagWorld {
        final Bdev bdev;
        final Page[] pages;
        final Bio[] bios;
        final int[] status;

        TagWorld(int tags, int submitters) {
            bdev = Bdev.create(submitters, tags, 0, DiskKind.NOWAIT);
            pages = new Page[submitters];
            bios = new Bio[submitters];
            status = new int[submitters];
            PageAllocator alloc = new PageAllocator(1);
            for (int i = 0; i < submitters; i++) {
                pages[i] = alloc.allocPage();
                Kernel.lifetimes().expect(pages[i], 1, "reader's buffer");
                /* Built here, not in the tasks, to keep the exploration to the tags. */
                Bio bio = BlockBio.bioAlloc(bdev.layer, 1);
                bio.biDisk = bdev.disk.gendisk;
                bio.biIter.biSector = (long) i << (Page.PAGE_SHIFT - BlkTypes.SECTOR_SHIFT);
                bio.biOpf = BlkTypes.REQ_OP_READ;
                BlockBio.bioAddPage(bio, pages[i], Page.PAGE_SIZE, 0);
                final int reader = i;
                bio.biEndIo = b -> status[reader] = b.biStatus;
                Kernel.lifetimes().expect(bio, 1, "reader's bio");
                bios[i] = bio;
                status[i] = -1;
            }
        }

        /** Submits reader {@code i}'s read (sleeping for a tag if none is free) and leaves. */
        void submit(int i) {
            BlkCore.submitBio(bios[i]);
        }

        /**
         * Every read ended well with the device's bytes, every tag is free and no tag waiter is
         * stranded (and the runtime's own check: nobody still sleeps).
         */
        void check() {
            BioChecks.checkQueueQuiescent(bdev.queue());
            for (int i = 0; i < pages.length; i++) {
                if (status[i] != BlkTypes.BLK_STS_OK) {
                    Kernel.fail(ViolationKind.BUG_ON, "read of page " + i + " ended with " + status[i]);
                }
                bdev.expectBytes((long) i << Page.PAGE_SHIFT, pages[i].data, 0, Page.PAGE_SIZE);
            }
        }
    }

    private static Scenario<TagWorld> tagReaders(Scenario.Builder<TagWorld> b, int submitters) {
        return tagReaders(b, 0, submitters);
    }

    /** Readers {@code [0, first)} are submitted by the set-up (their requests in flight at the start). */
    private static Scenario<TagWorld> tagReaders(Scenario.Builder<TagWorld> b, int first, int submitters) {
        for (int i = first; i < submitters; i++) {
            final int page = i;
            b.task("r" + i, w -> w.submit(page));
        }
        return b.atEnd(TagWorld::check).outcome(w -> w.bdev.stats().tagWaits + " tag sleeps").build();
    }

    /**
     * {@code tag-waiters}: two submitters on a device with one request tag and the kernel's eight
     * sbitmap wait queues ({@code wake_batch = 1}): the one that finds the tag taken sleeps on the
     * wait queue {@code bt_wait_ptr()} gives it; the completion (in interrupt context, at any
     * point) wakes it; nobody is stranded. Complete (every interleaving, DPOR).
     */
    static Scenario<TagWorld> tagWaiters() {
        return tagReaders(Scenario.<TagWorld>named("tag-waiters",
                "2 submitters, 1 request tag, 8 sbitmap wait queues: the tag waiter is woken")
                .setup(() -> new TagWorld(1, 2)), 2);
    }

    /**
     * Two tag waiters on a device with two request tags, both in flight from the start (the set-up
     * submits them, so only their completions interleave), and one sbitmap wait queue
     * ({@code SBQ_WAIT_QUEUES=1}), so that depth 2 gives {@code wake_batch = 2}: the queue wakes
     * two waiters for every two freed tags ({@code wait_cnt}), the case the kernel's eight queues
     * reach only at depth 16.
     */
    private static Scenario.Builder<TagWorld> batchWorld(String name, String description) {
        return Scenario.<TagWorld>named(name, description)
                .set(BlockOptions.SBQ_WAIT_QUEUES, 1)
                .setup(() -> {
                    TagWorld w = new TagWorld(2, 4);
                    w.submit(0);
                    w.submit(1);
                    return w;
                });
    }

    /**
     * {@code tag-waiters-batch} (large: run it named, within a bound): the batch world with
     * 72d04bdcf3f7 applied ({@code SBITMAP_CLEARED_RACE_FIX=y}); no waiter is stranded.
     */
    static Scenario<TagWorld> tagWaitersBatch() {
        return tagReaders(batchWorld("tag-waiters-batch",
                "2 tags in flight, 2 more submitters, 1 sbitmap wait queue (wake_batch 2), with 72d04bdcf3f7: every tag waiter is woken")
                .set(BlockOptions.SBITMAP_CLEARED_RACE_FIX, 1), 2, 4);
    }

    /**
     * {@code finding-sbitmap-cleared-race} (a finding: fails on the defaults on purpose): the batch
     * world on v5.10's {@code sbitmap_deferred_clear()}. One waiter reads the word full, the other
     * moves the cleared bits back, the first finds {@code cleared} empty and sleeps beside a free
     * tag; one batch of two frees woke only the other, and the last free leaves
     * {@code wait_cnt} at 1: {@code missed-wakeup}. The race fixed upstream in v6.11-rc1 by
     * 72d04bdcf3f7 ("sbitmap: fix io hung due to race on sbitmap_word::cleared").
     */
    static Scenario<TagWorld> findingSbitmapClearedRace() {
        return tagReaders(batchWorld("finding-sbitmap-cleared-race",
                "v5.10 sbitmap_deferred_clear(): a tag waiter gives up on a word another allocator just refilled and is stranded (fixed by 72d04bdcf3f7)"),
                2, 4);
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

    // ------------------------------------------------------------------ end of device

    /**
     * A block device of 20 sectors (10 KiB: two and a half pages) with 4 KiB blocks, read through
     * its page cache by two files: one reading ahead (4 pages), one not.
     */
    static final class EodWorld {
        static final int SECTORS = 20;
        final Bdev bdev = Bdev.createSectors(SECTORS, 2, 4);
        final File ra = BlockDev.blkdevOpen(bdev.bdev, "eod.ra", 4);
        final File nora = BlockDev.blkdevOpen(bdev.bdev, "eod.nora", 0);
        final StringBuilder results = new StringBuilder();

        /**
         * {@code read(2)} of {@code len} bytes at {@code pos}: it must return the bytes up to the
         * end of the device ({@code i_size}), each the device's, and never more.
         */
        void read(File f, long pos, int len) {
            IovIter iter = new IovIter(len);
            long size = (long) SECTORS << BlkTypes.SECTOR_SHIFT;
            long ret = FilemapRead.genericFileReadIter(new Kiocb(f, pos, 0), iter);
            Kernel.event("read(%s, %s) = %s", f + "@" + pos, len, Errno.name(ret));
            long want = Math.max(0, Math.min(len, size - pos));
            if (ret != want) {
                Kernel.fail(ViolationKind.WRONG_RESULT, "read(" + pos + ", " + len + ") of a " + size
                        + "-byte device returned " + Errno.name(ret) + ", not " + want);
            }
            if (ret > 0) {
                bdev.expectBytes(pos, iter.buf, 0, (int) ret);
            }
            results.append(results.length() == 0 ? "" : " ").append(f).append('=').append(Errno.name(ret));
        }
    }

    /**
     * {@code bdev-read-eod} (large): a block device of 10 KiB whose block size is 4 KiB (as after
     * a file system's {@code sb_set_blocksize()}), so its last block runs 2 KiB past the end of
     * the device. One reader reads the whole device through read-ahead ({@code mpage_readahead()}:
     * one bio of three pages), the other reads the last page without read-ahead
     * ({@code block_read_full_page()}, {@code submit_bh()}); each bio crossing the end is cut to it
     * by {@code guard_bio_eod()}, whose {@code bio_truncate()} zeroes the pages' part past the end
     * (the fix 85a8ce62c2ea, v5.5: the bytes past the device must not be left stale in the page
     * cache). Both readers get the device's bytes up to its end, the cached tail page holds zeros
     * past it, and no request reaches past the device ({@code bio_check_eod()}).
     */
    static Scenario<EodWorld> bdevReadEod() {
        return Scenario.<EodWorld>named("bdev-read-eod",
                "a 10 KiB block device with 4 KiB blocks read with and without read-ahead: guard_bio_eod() truncates the bios at its end")
                .autoBound(1)
                .setup(EodWorld::new)
                .task("ra", w -> w.read(w.ra, 0, 3 * Page.PAGE_SIZE))
                .task("nora", w -> w.read(w.nora, 2L * Page.PAGE_SIZE, Page.PAGE_SIZE))
                .atEnd(w -> {
                    w.bdev.checkAtEnd();
                    w.bdev.expectCacheMatchesDisk();
                })
                .outcome(w -> w.results.toString())
                .build();
    }
}
