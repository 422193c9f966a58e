package kmodel.block;

import static kmodel.block.BlockTesting.pages;
import static kmodel.block.BlockTesting.runClean;
import static kmodel.block.DiskTest.bio;
import static kmodel.block.DiskTest.matchesDisk;
import static kmodel.block.DiskTest.recording;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import kmodel.mm.Page;
import org.junit.jupiter.api.Test;

/**
 * lib/sbitmap.c in its v5.10 shape (geometry, wake batch, deferred clears), the submitter's plug
 * with {@code nowait}, and the three {@link DiskKind}s.
 */
class TagsAndDevicesTest {

    private static Kconfig waitQueues(long n) {
        return Kconfig.of(Map.of("SBQ_WAIT_QUEUES", n), List.of());
    }

    // ------------------------------------------------------------------ sbitmap_queue

    @Test
    void theBitmapIsSpreadOverWordsAndTheWakeBatchFollowsSbqCalcWakeBatch() {
        runClean(() -> {
            int[][] expect = {
                // depth, map_nr, bits in word 0, wake_batch (8 wait queues)
                {1, 1, 1, 1}, {2, 1, 2, 1}, {4, 4, 1, 1}, {8, 4, 2, 1}, {16, 4, 4, 2}, {32, 4, 8, 4},
                {64, 4, 16, 8}, {128, 4, 32, 8}, {256, 4, 64, 8},
            };
            for (int[] e : expect) {
                SbitmapQueue sbq = new SbitmapQueue("t", e[0]);
                assertEquals(e[1], sbq.mapNr(), "map_nr of depth " + e[0]);
                assertEquals(e[2], sbq.map[0].depth, "bits per word of depth " + e[0]);
                assertEquals(e[3], sbq.wakeBatch(), "wake_batch of depth " + e[0]);
                assertEquals(8, sbq.nrWaitQueues());
                for (int i = 0; i < 8; i++) {
                    assertEquals(e[3], sbq.peekWaitCnt(i), "wait_cnt starts at wake_batch");
                }
            }
        });
    }

    @Test
    void scalingTheWaitQueuesDownRaisesTheWakeBatchAtSmallDepths() {
        runClean(waitQueues(1), () -> {
            SbitmapQueue sbq = new SbitmapQueue("t", 2);
            assertEquals(1, sbq.nrWaitQueues());
            assertEquals(2, sbq.wakeBatch(), "clamp(2 / 1, 1, 8)");
        });
        runClean(waitQueues(2), () -> assertEquals(2, new SbitmapQueue("t", 4).wakeBatch(), "clamp(4 / 2, 1, 8)"));
    }

    @Test
    void aFreedTagIsDeferredInClearedUntilAnAllocatorFindsItsWordFull() {
        runClean(() -> {
            SbitmapQueue sbq = new SbitmapQueue("t", 2);
            assertEquals(0, sbq.__sbitmapQueueGet());
            assertEquals(1, sbq.__sbitmapQueueGet());
            assertEquals(-1, sbq.__sbitmapQueueGet(), "full");
            sbq.sbitmapQueueClear(0);
            assertEquals(0b11, sbq.map[0].word.peek(), "sbitmap_deferred_clear_bit() leaves word alone");
            assertEquals(0b01, sbq.map[0].cleared.peek(), "and sets the bit in cleared");
            assertFalse(sbq.peekBusy(0));
            assertEquals(1, sbq.peekBusy());
            assertEquals(0, sbq.__sbitmapQueueGet(), "the full word's deferred clears are moved back, then taken");
            assertEquals(0, sbq.map[0].cleared.peek());
            assertEquals(0b11, sbq.map[0].word.peek());
            assertEquals(2, sbq.peekBusy());
        });
    }

    @Test
    void allocationGoesOnToTheNextWord() {
        runClean(() -> {
            SbitmapQueue sbq = new SbitmapQueue("t", 16); // 4 words of 4 bits
            for (int i = 0; i < 16; i++) {
                assertEquals(i, sbq.__sbitmapQueueGet());
            }
            assertEquals(-1, sbq.__sbitmapQueueGet());
            sbq.sbitmapQueueClear(13);
            assertEquals(0b0010, sbq.map[3].cleared.peek(), "bit 13 is bit 1 of word 3");
            assertEquals(13, sbq.__sbitmapQueueGet());
        });
    }

    @Test
    void aWaitQueueWakesOnlyAfterWakeBatchFreesAndThenWakesAWholeBatch() {
        /* One task plays every role, so the wait entries are queued by hand; the scenarios
         * tag-waiters* check the wake-ups themselves with real sleepers. */
        runClean(waitQueues(1), () -> {
            SbitmapQueue sbq = new SbitmapQueue("t", 2);
            assertEquals(2, sbq.wakeBatch());
            sbq.__sbitmapQueueGet();
            sbq.__sbitmapQueueGet();
            SbitmapQueue.SbqWait a = new SbitmapQueue.SbqWait("a");
            SbitmapQueue.SbqWait b = new SbitmapQueue.SbqWait("b");
            sbq.sbitmapPrepareToWait(sbq.ws[0], a, Task.TASK_UNINTERRUPTIBLE);
            sbq.sbitmapPrepareToWait(sbq.ws[0], b, Task.TASK_UNINTERRUPTIBLE);
            Sched.setCurrentState(Task.TASK_RUNNING);
            assertEquals(2, sbq.wsActive.peek());
            sbq.sbitmapQueueClear(0);
            assertEquals(1, sbq.peekWaitCnt(0), "first free: wait_cnt 2 -> 1, nobody woken");
            assertEquals(2, sbq.peekWaiters());
            sbq.sbitmapQueueClear(1);
            assertEquals(2, sbq.peekWaitCnt(0), "second free: wait_cnt reaches 0 and is re-armed to wake_batch");
            /* (the entries stay queued: their task, the running test task, needs no waking) */
            sbq.sbitmapFinishWait(sbq.ws[0], a);
            sbq.sbitmapFinishWait(sbq.ws[0], b);
            assertEquals(0, sbq.wsActive.peek());
            a.wait.leaveScope();
            b.wait.leaveScope();
        });
    }

    @Test
    void sbqWakePtrSkipsEmptyQueuesAndMovesWakeIndexToTheFirstActiveOne() {
        runClean(() -> {
            SbitmapQueue sbq = new SbitmapQueue("t", 2);
            assertNull(sbq.sbqWakePtr(), "ws_active == 0");
            SbitmapQueue.SbqWait a = new SbitmapQueue.SbqWait("a");
            sbq.sbitmapPrepareToWait(sbq.ws[5], a, Task.TASK_UNINTERRUPTIBLE);
            Sched.setCurrentState(Task.TASK_RUNNING);
            assertSame(sbq.ws[5], sbq.sbqWakePtr());
            assertEquals(5, sbq.wakeIndex.peek());
            sbq.sbitmapFinishWait(sbq.ws[5], a);
            a.wait.leaveScope();
        });
    }

    // ------------------------------------------------------------------ the plug

    @Test
    void underANowaitPlugABioWithNoFreeTagGetsBlkStsAgainInsteadOfSleeping() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 1, DiskKind.NOWAIT);
            Page[] p = pages(2);
            List<String> log = new ArrayList<>();
            Completion doneA = new Completion("a");
            Completion doneB = new Completion("b");
            Bio a = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            a.biPrivate = doneA;
            a.biEndIo = recording(log);
            BlkCore.submitBio(a); // takes the only tag
            BlkPlug plug = new BlkPlug();
            BlkPlug.blkStartPlug(plug);
            plug.nowait = true;
            assertSame(plug, Sched.current().plug());
            Bio b = bio(disk, BlkTypes.REQ_OP_READ, 8, p[1]);
            b.biPrivate = doneB;
            b.biEndIo = recording(log);
            long sleeps = Sched.current().nvcsw();
            BlkCore.submitBio(b);
            assertTrue((b.biOpf & BlkTypes.REQ_NOWAIT) != 0, "submit_bio_checks() marks it REQ_NOWAIT");
            assertEquals(sleeps, Sched.current().nvcsw(), "it did not sleep for a tag");
            assertEquals(0, disk.stats().tagWaits);
            assertEquals("bio1 BLK_STS_AGAIN in t1 size 4096", log.get(0));
            BlkPlug.blkFinishPlug(plug);
            assertNull(Sched.current().plug());
            Completion.waitForCompletionIo(doneA);
            Completion.waitForCompletionIo(doneB);
            BlockBio.bioPut(a);
            BlockBio.bioPut(b);
        });
    }

    @Test
    void aNestedPlugIsNotAssignedAndFinishingAPlugThatIsNotCurrentDoesNothing() {
        runClean(() -> {
            BlkPlug outer = new BlkPlug();
            BlkPlug inner = new BlkPlug();
            BlkPlug.blkStartPlug(outer);
            BlkPlug.blkStartPlug(inner);
            assertSame(outer, Sched.current().plug(), "blk_start_plug(): a nested plug is not assigned");
            BlkPlug.blkFinishPlug(inner);
            assertSame(outer, Sched.current().plug(), "blk_finish_plug() of a plug that is not current->plug");
            BlkPlug.blkFinishPlug(outer);
            assertNull(Sched.current().plug());
        });
    }

    @Test
    void aBioOutsideAnyPlugOrUnderAPlugWithoutNowaitIsNotMarked() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, DiskKind.NOWAIT);
            Page[] p = pages(1);
            BlkPlug plug = new BlkPlug();
            BlkPlug.blkStartPlug(plug);
            Bio b = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            assertEquals(0, BlockBio.submitBioWait(b));
            assertEquals(0, b.biOpf & BlkTypes.REQ_NOWAIT);
            BlkPlug.blkFinishPlug(plug);
            BlockBio.bioPut(b);
        });
    }

    // ------------------------------------------------------------------ devices

    @Test
    void theNowaitDeviceServesANowaitBioThatFindsATag() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sda", 64, 2, DiskKind.NOWAIT);
            assertTrue(RequestQueue.blkQueueNowait(disk.queue));
            Page[] p = pages(1);
            Bio b = bio(disk, BlkTypes.REQ_OP_READ, 8, p[0]);
            b.biOpf |= BlkTypes.REQ_NOWAIT;
            assertEquals(0, BlockBio.submitBioWait(b));
            assertTrue(matchesDisk(disk, p[0], 8));
            assertEquals(0, disk.stats().again + disk.stats().againAtCompletion + disk.stats().notsupp);
            BlockBio.bioPut(b);
        });
    }

    @Test
    void theDeviceWithoutNowaitFailsANowaitBioWithNotsuppAtSubmissionAndServesOthers() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sdb", 64, 2, DiskKind.NO_NOWAIT);
            assertFalse(RequestQueue.blkQueueNowait(disk.queue));
            Page[] p = pages(2);
            List<String> log = new ArrayList<>();
            Completion done = new Completion("n");
            Bio n = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            n.biOpf |= BlkTypes.REQ_NOWAIT;
            n.biPrivate = done;
            n.biEndIo = recording(log);
            BlkCore.submitBio(n);
            assertEquals(List.of("bio0 BLK_STS_NOTSUPP in t1 size 4096"), log,
                    "completed inside submit_bio(), in the submitter, before any I/O");
            assertEquals(0, disk.stats().requestsIssued);
            Bio b = bio(disk, BlkTypes.REQ_OP_READ, 8, p[1]);
            assertEquals(0, BlockBio.submitBioWait(b));
            assertTrue(matchesDisk(disk, p[1], 8));
            Completion.waitForCompletionIo(done);
            BlockBio.bioPut(n);
            BlockBio.bioPut(b);
        });
    }

    @Test
    void theAgainAtCompletionDeviceFailsANowaitBioInItsInterruptAndServesOthers() {
        runClean(() -> {
            Disk disk = new Disk(new BlockLayer(), "sdc", 64, 2, DiskKind.AGAIN_AT_COMPLETION);
            assertTrue(RequestQueue.blkQueueNowait(disk.queue), "the queue accepts REQ_NOWAIT");
            Page[] p = pages(2);
            byte before = p[0].data[0];
            List<String> log = new ArrayList<>();
            Completion done = new Completion("n");
            Bio n = bio(disk, BlkTypes.REQ_OP_READ, 0, p[0]);
            n.biOpf |= BlkTypes.REQ_NOWAIT;
            n.biPrivate = done;
            n.biEndIo = recording(log);
            BlkCore.submitBio(n);
            assertTrue(log.isEmpty(), "submission succeeded: the request was issued");
            assertEquals(1, disk.stats().requestsIssued);
            Completion.waitForCompletionIo(done);
            assertEquals(List.of("bio0 BLK_STS_AGAIN in irq:bio0 size 0"), log,
                    "failed with BLK_STS_AGAIN by the completion interrupt");
            assertEquals(-Errno.EAGAIN, BlkCore.blkStatusToErrno(n.biStatus));
            assertEquals(before, p[0].data[0], "nothing was transferred");
            assertEquals(1, disk.stats().againAtCompletion);
            assertEquals(0, disk.stats().again);
            assertEquals(0, disk.stats().bytesRead);
            assertEquals(0, disk.queue.peekBusyTags(), "the request and its tag were freed");
            Bio b = bio(disk, BlkTypes.REQ_OP_READ, 8, p[1]);
            assertEquals(0, BlockBio.submitBioWait(b), "a bio without REQ_NOWAIT reads normally");
            assertTrue(matchesDisk(disk, p[1], 8));
            BlockBio.bioPut(n);
            BlockBio.bioPut(b);
            BioChecks.checkQueueQuiescent(disk.queue);
        });
    }

    @Test
    void theKindsBuildTheirQueueFlag() {
        runClean(() -> {
            assertTrue(RequestQueue.blkQueueNowait(new Disk(new BlockLayer(), "a", 8, 1, true).queue));
            assertFalse(RequestQueue.blkQueueNowait(new Disk(new BlockLayer(), "b", 8, 1, false).queue));
            assertEquals(DiskKind.NO_NOWAIT, new Disk(new BlockLayer(), "c", 8, 1, false).kind);
            assertEquals(DiskKind.NOWAIT, new Disk(new BlockLayer(), "d", 8, 1, true).kind);
        });
    }
}
