package kmodel.block;

import static kmodel.block.BlockTesting.pages;
import static kmodel.block.BlockTesting.random;
import static kmodel.block.BlockTesting.runClean;
import static kmodel.block.BlockTesting.runViolating;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Runtime;
import kmodel.kernel.sched.Strategy;
import kmodel.mm.Page;
import kmodel.mm.PageAllocator;
import org.junit.jupiter.api.Test;

class DiskTest {

    /** A bio for {@code op} of whole pages {@code p} at {@code sector} of {@code disk}. */
    static Bio bio(Disk disk, int op, long sector, Page... p) {
        Bio bio = BlockBio.bioAlloc(disk.gendisk.layer, p.length);
        bio.biDisk = disk.gendisk;
        bio.biIter.biSector = sector;
        bio.biOpf = op;
        for (Page page : p) {
            BlockBio.bioAddPage(bio, page, Page.PAGE_SIZE, 0);
        }
        return bio;
    }

    /** True when {@code page} holds the disk's bytes of the page at {@code sector}. */
    static boolean matchesDisk(Disk disk, Page page, long sector) {
        for (int i = 0; i < Page.PAGE_SIZE; i++) {
            if (page.data[i] != disk.byteAt((sector << 9) + i)) {
                return false;
            }
        }
        return true;
    }

    /** An end_io that records the status and the completing task, then completes {@code bi_private}. */
    static BioEndIo recording(List<String> log) {
        return b -> {
            log.add(b.name() + " " + BlkTypes.statusName(b.biStatus) + " in " + Kernel.current().name()
                    + " size " + b.biIter.biSize);
            Completion.complete((Completion) b.biPrivate);
        };
    }

    @Test
    void aReadCompletesInInterruptContextWithTheDisksBytesAndAConsumedBiIter() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Disk disk = new Disk(layer, "sda", 64, 2, true);
            Page[] p = pages(3);
            Bio bio = bio(disk, BlkTypes.REQ_OP_READ, 8, p);
            List<String> log = new ArrayList<>();
            Completion done = new Completion("done");
            bio.biPrivate = done;
            bio.biEndIo = recording(log);
            BlkCore.submitBio(bio);
            Completion.waitForCompletionIo(done);
            assertEquals(List.of("bio0 BLK_STS_OK in irq:bio0 size 0"), log,
                    "end_io runs in the completion task and sees bi_iter consumed");
            for (int i = 0; i < 3; i++) {
                assertTrue(matchesDisk(disk, p[i], 8 + 8 * i), "page " + i);
            }
            DiskStats s = disk.stats();
            assertEquals(1, s.biosSubmitted);
            assertEquals(3, s.pagesSubmitted);
            assertEquals(3 * Page.PAGE_SIZE, s.bytesRead);
            assertEquals(1, s.requestsIssued);
            assertEquals(1, s.requestsCompleted);
            assertEquals(1L, s.pagesPerBio().get(3));
            BioChecks.checkQueueQuiescent(disk.queue);
            assertEquals(0, disk.queue.peekBusyTags());
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void aWrittenPageReadsBack() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, true);
            Page[] p = pages(2);
            Bio w = bio(disk, BlkTypes.REQ_OP_WRITE, 16, p[0]);
            assertEquals(0, BlockBio.submitBioWait(w));
            BlockBio.bioPut(w);
            Bio r = bio(disk, BlkTypes.REQ_OP_READ, 16, p[1]);
            assertEquals(0, BlockBio.submitBioWait(r));
            BlockBio.bioPut(r);
            for (int i = 0; i < Page.PAGE_SIZE; i++) {
                assertEquals(p[0].data[i], p[1].data[i]);
            }
            assertEquals(Page.PAGE_SIZE, disk.stats().bytesWritten);
        });
    }

    @Test
    void aNowaitBioThatFindsNoTagFailsWithBlkStsAgainInTheSubmittersContext() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 1, true);
            Page[] p = pages(2);
            List<String> log = new ArrayList<>();
            Completion doneA = new Completion("a");
            Completion doneB = new Completion("b");
            Bio a = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            a.biPrivate = doneA;
            a.biEndIo = recording(log);
            Bio b = bio(disk, BlkTypes.REQ_OP_READ, 8, p[1]);
            b.biOpf |= BlkTypes.REQ_NOWAIT;
            b.biPrivate = doneB;
            b.biEndIo = recording(log);
            BlkCore.submitBio(a);
            BlkCore.submitBio(b);
            assertEquals("bio1 BLK_STS_AGAIN in t1 size 4096", log.get(0),
                    "bio_wouldblock_error() completes it at once, before its I/O, in the submitter");
            assertTrue(Bio.bioFlagged(b, BlkTypes.BIO_QUIET));
            Completion.waitForCompletionIo(doneA);
            Completion.waitForCompletionIo(doneB);
            assertEquals(1, disk.stats().again);
            assertEquals(1, disk.stats().requestsIssued);
            BlockBio.bioPut(a);
            BlockBio.bioPut(b);
        });
    }

    @Test
    void aBlockingSubmitSleepsForATagUntilACompletionFreesIt() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 1, true);
            Page[] p = pages(2);
            List<String> log = new ArrayList<>();
            Completion doneA = new Completion("a");
            Bio a = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            a.biPrivate = doneA;
            a.biEndIo = recording(log);
            BlkCore.submitBio(a);
            assertEquals(1, disk.queue.peekBusyTags());
            Bio b = bio(disk, BlkTypes.REQ_OP_READ, 8, p[1]);
            assertEquals(0, BlockBio.submitBioWait(b), "sleeps in blk_mq_get_tag, then completes");
            assertEquals(List.of("bio0 BLK_STS_OK in irq:bio0 size 0"), log, "bio0 completed before bio1 got its tag");
            assertEquals(1, disk.stats().tagWaits);
            assertEquals(0, disk.queue.peekTagWaiters());
            assertTrue(matchesDisk(disk, p[1], 8));
            Completion.waitForCompletionIo(doneA);
            BlockBio.bioPut(a);
            BlockBio.bioPut(b);
            BioChecks.checkQueueQuiescent(disk.queue);
        });
    }

    @Test
    void readAheadWithTheSeedPatchDoesNotWaitForATagButWithoutItDoes() {
        for (boolean patch : new boolean[] {true, false}) {
            Kconfig config = Kconfig.defaults().with(BlockOptions.REQ_RAHEAD_NOWAIT, patch);
            runClean(config, () -> {
                Disk disk = new Disk(new BlockLayer(), "sda", 64, 1, true);
                Page[] p = pages(2);
                Bio a = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
                Completion doneA = new Completion("a");
                a.biPrivate = doneA;
                a.biEndIo = b -> Completion.complete((Completion) b.biPrivate);
                BlkCore.submitBio(a);
                Bio ra = bio(disk, BlkTypes.REQ_OP_READ, 8, p[1]);
                ra.biOpf |= BlkTypes.reqRahead();
                int err = BlockBio.submitBioWait(ra);
                assertEquals(patch ? -11 : 0, err, patch ? "REQ_RAHEAD carries REQ_NOWAIT: -EAGAIN" : "waits for the tag");
                assertEquals(patch ? 0 : 1, disk.stats().tagWaits);
                assertEquals(1, disk.stats().raheadBios);
                Completion.waitForCompletionIo(doneA);
                BlockBio.bioPut(a);
                BlockBio.bioPut(ra);
            });
        }
    }

    @Test
    void aReadAheadRequestIsFailfast() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 1, true);
            Page[] p = pages(1);
            Bio ra = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            ra.biOpf |= BlkTypes.reqRahead();
            long[] cmdFlags = new long[1];
            Completion done = new Completion("done");
            ra.biPrivate = done;
            ra.biEndIo = b -> Completion.complete((Completion) b.biPrivate);
            BlkCore.submitBio(ra);
            cmdFlags[0] = disk.queue.staticRq(0).cmdFlags;
            Completion.waitForCompletionIo(done);
            assertEquals(BlkTypes.REQ_FAILFAST_MASK, cmdFlags[0] & BlkTypes.REQ_FAILFAST_MASK);
            BlockBio.bioPut(ra);
        });
    }

    @Test
    void aNowaitBioToAQueueWithoutNowaitSupportFailsWithNotsupp() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sdb", 64, 4, false);
            Page[] p = pages(1);
            Bio bio = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            bio.biOpf |= BlkTypes.REQ_NOWAIT;
            assertEquals(-95, BlockBio.submitBioWait(bio), "-EOPNOTSUPP");
            assertEquals(BlkTypes.BLK_STS_NOTSUPP, bio.biStatus);
            assertEquals(1, disk.stats().notsupp);
            assertEquals(0, disk.stats().requestsIssued);
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void anInjectedReadErrorFailsTheBioAndStopsTheTransferAtTheBadSector() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, true);
            disk.injectReadError(9);
            Page[] p = pages(2);
            byte[] before = p[1].data.clone();
            Bio bio = bio(disk, BlkTypes.REQ_OP_READ, 0, p);
            assertEquals(-5, BlockBio.submitBioWait(bio), "-EIO");
            assertEquals(BlkTypes.BLK_STS_IOERR, bio.biStatus);
            assertTrue(matchesDisk(disk, p[0], 0), "the sectors before the bad one were transferred");
            for (int i = 0; i < 512; i++) {
                assertEquals(disk.byteAt(8 * 512 + i), p[1].data[i]);
            }
            for (int i = 512; i < Page.PAGE_SIZE; i++) {
                assertEquals(before[i], p[1].data[i], "nothing from the bad sector on");
            }
            assertEquals(0, bio.biIter.biSize, "a failed request is still consumed");
            assertEquals(1, disk.stats().ioErrors);
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void aBioPastTheEndOfTheDeviceFailsWithIoerrAtSubmit() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 16, 2, true);
            Page[] p = pages(1);
            Bio bio = bio(disk, BlkTypes.REQ_OP_READ, 12, p[0]);
            assertEquals(-5, BlockBio.submitBioWait(bio));
            assertEquals(0, disk.stats().requestsIssued);
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void aBioOverTheQueueLimitsIsSplitAndChainedAndEndsOnceWithAllItsData() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, true);
            disk.queue.limits.maxSectors = 12;
            Page[] p = pages(3);
            Bio bio = bio(disk, BlkTypes.REQ_OP_READ, 16, p);
            int[] calls = new int[1];
            Completion done = new Completion("done");
            bio.biPrivate = done;
            bio.biEndIo = b -> {
                calls[0]++;
                Completion.complete((Completion) b.biPrivate);
            };
            BlkCore.submitBio(bio);
            Completion.waitForCompletionIo(done);
            assertEquals(1, calls[0]);
            assertEquals(1, disk.stats().splits, "24 sectors at 12 per request: one split, mid-bvec");
            assertEquals(2, disk.stats().requestsIssued);
            assertEquals(1, disk.stats().biosSubmitted);
            for (int i = 0; i < 3; i++) {
                assertTrue(matchesDisk(disk, p[i], 16 + 8 * i), "page " + i);
            }
            assertEquals(BlkTypes.BLK_STS_OK, bio.biStatus);
            assertFalse(Bio.bioFlagged(bio, BlkTypes.BIO_CHAIN));
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void freeingARequestTwiceIsADoubleRelease() {
        runViolating(ViolationKind.DOUBLE_RELEASE, () -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, true);
            Request rq = BlkMq.__blkMqAllocRequest(disk.queue, BlkTypes.REQ_OP_READ);
            BlkMq.blkMqFreeRequest(rq);
            BlkMq.blkMqFreeRequest(rq);
        });
    }

    @Test
    void aRequestNeverFreedIsAReferenceLeak() {
        runViolating(ViolationKind.REF_LEAK, () -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, true);
            BlkMq.__blkMqAllocRequest(disk.queue, BlkTypes.REQ_OP_READ);
        });
    }

    @Test
    void aTagWaiterQueuedWhileATagIsFreeFailsTheQuiescenceCheck() {
        runViolating(ViolationKind.MISSED_WAKEUP, () -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, true);
            SbitmapQueue.SbqWait wait = new SbitmapQueue.SbqWait("t1.sbq_wait");
            SbitmapQueue bt = disk.queue.tags.bitmapTags;
            bt.sbitmapPrepareToWait(bt.ws[0], wait, kmodel.kernel.sched.Task.TASK_UNINTERRUPTIBLE);
            BioChecks.checkQueueQuiescent(disk.queue);
        });
    }

    @Test
    void aLargeDiskCostsNothingToBuildAndServesItsLastPage() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 8L << 20, 2, true); // 4 GiB
            Page[] p = pages(1);
            long last = (8L << 20) - 8;
            Bio r = bio(disk, BlkTypes.REQ_OP_READ, last, p[0]);
            assertEquals(0, BlockBio.submitBioWait(r));
            assertTrue(matchesDisk(disk, p[0], last));
            BlockBio.bioPut(r);
        });
    }

    // ------------------------------------------------------------------ random schedules

    /**
     * {@code readers} tasks each submit {@code biosEach} reads of two pages at once and then wait;
     * {@code nowait} marks every other bio REQ_NOWAIT. finish() reports the completion order.
     */
    static Program readers(int readers, int biosEach, int tags, boolean nowait, int[] againCount) {
        return new Program() {
            Disk disk;
            final List<String> completions = new ArrayList<>();

            @Override
            public void boot(Runtime rt) {
                BlockLayer layer = new BlockLayer();
                disk = new Disk(layer, "sda", 8L * 2 * readers * biosEach, tags, true);
                PageAllocator alloc = new PageAllocator();
                for (int t = 0; t < readers; t++) {
                    final int task = t;
                    final Page[] p = new Page[2 * biosEach];
                    for (int i = 0; i < p.length; i++) {
                        p[i] = alloc.allocPage();
                        Kernel.lifetimes().expect(p[i], 1, "reader's buffer");
                    }
                    rt.spawn("r" + t, null, false, false, () -> {
                        Bio[] bios = new Bio[biosEach];
                        Completion[] done = new Completion[biosEach];
                        for (int b = 0; b < biosEach; b++) {
                            long sector = 8L * 2 * (task * biosEach + b);
                            bios[b] = bio(disk, BlkTypes.REQ_OP_READ, sector, p[2 * b], p[2 * b + 1]);
                            if (nowait && b % 2 == 1) {
                                bios[b].biOpf |= BlkTypes.REQ_NOWAIT;
                            }
                            done[b] = new Completion(bios[b].name() + ".done");
                            bios[b].biPrivate = done[b];
                            bios[b].biEndIo = bio -> {
                                completions.add(bio.name());
                                Completion.complete((Completion) bio.biPrivate);
                            };
                            BlkCore.submitBio(bios[b]);
                        }
                        for (int b = 0; b < biosEach; b++) {
                            Completion.waitForCompletionIo(done[b]);
                            long sector = 8L * 2 * (task * biosEach + b);
                            if (bios[b].biStatus == BlkTypes.BLK_STS_AGAIN) {
                                againCount[0]++;
                            } else if (bios[b].biStatus != 0 || !matchesDisk(disk, p[2 * b], sector)
                                    || !matchesDisk(disk, p[2 * b + 1], sector + 8)) {
                                Kernel.fail(ViolationKind.DATA_CORRUPTION, bios[b] + " read wrong bytes");
                            }
                            BlockBio.bioPut(bios[b]);
                        }
                    });
                }
            }

            @Override
            public String finish() {
                BioChecks.checkQueueQuiescent(disk.queue);
                return String.valueOf(completions);
            }
        };
    }

    static TreeSet<String> explore(int executions, long seed, int readers, int biosEach, int tags, boolean nowait,
            int[] againCount) {
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            TreeSet<String> outcomes = new TreeSet<>();
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                Strategy s = random(seed);
                for (int i = 0; i < executions; i++) {
                    ExecutionResult r = rt.execute(readers(readers, biosEach, tags, nowait, againCount), s,
                            Kconfig.defaults(), 100_000, false, false);
                    assertNull(r.violation(), () -> r.violation().summary()
                            + (r.oops() != null ? " " + r.oops() : ""));
                    assertNull(r.stepBound());
                    outcomes.add(r.outcome());
                }
            }
            return outcomes;
        });
    }

    @Test
    void completionsInAnyOrderDeliverTheDisksBytesAndFreeEveryTag() {
        int[] again = new int[1];
        TreeSet<String> orders = explore(300, 11, 3, 2, 2, false, again);
        assertTrue(orders.size() > 10, "the explorer picks many completion orders: " + orders.size());
        assertEquals(0, again[0]);
    }

    @Test
    void blockingSubmittersOnOneTagNeverMissTheTagWakeup() {
        int[] again = new int[1];
        TreeSet<String> orders = explore(300, 13, 3, 2, 1, false, again);
        assertTrue(orders.size() > 1);
        assertEquals(0, again[0]);
    }

    @Test
    void nowaitBiosUnderContentionSometimesGetAgainAndOtherwiseReadTheRightBytes() {
        int[] again = new int[1];
        explore(300, 5, 3, 2, 1, true, again);
        assertTrue(again[0] > 0, "some REQ_NOWAIT bio met a full tag set");
        assertTrue(again[0] < 300 * 3, "and not every one");
    }
}
