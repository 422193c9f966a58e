package kmodel.block;

import static kmodel.block.BlkTypes.BIO_CLONED;
import static kmodel.block.BlockTesting.bytesOf;
import static kmodel.block.BlockTesting.pages;
import static kmodel.block.BlockTesting.runClean;
import static kmodel.block.BlockTesting.runViolating;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Run;
import kmodel.mm.Page;
import org.junit.jupiter.api.Test;

class BioTest {

    /** A bio of {@code n} whole pages at sector 0. */
    static Bio wholePages(BlockLayer layer, Page[] p) {
        Bio bio = BlockBio.bioAlloc(layer, p.length);
        for (Page page : p) {
            assertEquals(Page.PAGE_SIZE, BlockBio.bioAddPage(bio, page, Page.PAGE_SIZE, 0));
        }
        return bio;
    }

    static byte[] concat(Page[] p) {
        byte[] out = new byte[p.length * Page.PAGE_SIZE];
        for (int i = 0; i < p.length; i++) {
            System.arraycopy(p[i].data, 0, out, i * Page.PAGE_SIZE, Page.PAGE_SIZE);
        }
        return out;
    }

    @Test
    void bioAddPageMergesOnlyContiguousRangesOfTheSamePage() {
        runClean(() -> {
            Page[] p = pages(2);
            Bio bio = BlockBio.bioAlloc(new BlockLayer(), 4);
            assertEquals(1024, BlockBio.bioAddPage(bio, p[0], 1024, 0));
            assertEquals(1024, BlockBio.bioAddPage(bio, p[0], 1024, 1024));
            assertEquals(1, bio.biVcnt, "contiguous range of the same page merges into the last bvec");
            assertEquals(2048, bio.ioVec()[0].bvLen);
            assertEquals(1024, BlockBio.bioAddPage(bio, p[0], 1024, 3072));
            assertEquals(2, bio.biVcnt, "a gap starts a new bvec");
            assertEquals(512, BlockBio.bioAddPage(bio, p[1], 512, 0));
            assertEquals(3, bio.biVcnt, "another page never merges (no physical addresses)");
            assertEquals(1024 * 3 + 512, bio.biIter.biSize);
            BioChecks.checkInvariants(bio);
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void bioAddPageReturnsZeroWhenBiMaxVecsIsReachedButStillMergesIntoTheLastBvec() {
        runClean(() -> {
            Page[] p = pages(3);
            Bio bio = BlockBio.bioAlloc(new BlockLayer(), 2);
            assertEquals(2048, BlockBio.bioAddPage(bio, p[0], 2048, 0));
            assertEquals(2048, BlockBio.bioAddPage(bio, p[1], 2048, 0));
            assertEquals(0, BlockBio.bioAddPage(bio, p[2], 4096, 0), "bio_full: no free bvec");
            assertEquals(2048, BlockBio.bioAddPage(bio, p[1], 2048, 2048), "a merge needs no new bvec");
            assertEquals(2, bio.biVcnt);
            assertEquals(6144, bio.biIter.biSize);
            BioChecks.checkInvariants(bio);
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void bioForEachSegmentWalksTheDataFromBiIterInPageOrder() {
        runClean(() -> {
            Page[] p = pages(3);
            Bio bio = wholePages(new BlockLayer(), p);
            BvecIter iter = new BvecIter();
            assertArrayEquals(concat(p), bytesOf(Bio.bioForEachSegment(bio, iter)));
            assertEquals(0, iter.biSize, "the loop variable ends consumed");
            assertEquals(3 * Page.PAGE_SIZE, bio.biIter.biSize, "bio->bi_iter itself is not touched");
            assertEquals(3, Bio.bioSegments(bio));
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void bioCloneFastSharesTheParentsTableCopiesTheIterAndKeepsBiVcntZero() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(3);
            Bio parent = wholePages(layer, p);
            BlockBio.bioAdvance(parent, 5000);
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            assertSame(parent.ioVec(), clone.ioVec(), "the clone points at the parent's table");
            assertSame(parent, clone.ioVecOwner());
            assertEquals(0, clone.biVcnt);
            assertEquals(0, clone.biMaxVecs);
            assertTrue(Bio.bioFlagged(clone, BIO_CLONED));
            assertEquals(parent.biIter.toString(), clone.biIter.toString());
            assertEquals(1, clone.biIter.biIdx, "starts mid-table");
            assertEquals(5000 - Page.PAGE_SIZE, clone.biIter.biBvecDone, "and mid-bvec");
            assertEquals(1, parent.peekCnt(), "no reference is taken on the parent");
            BioChecks.checkInvariants(clone);
            assertArrayEquals(Arrays.copyOfRange(concat(p), 5000, 3 * Page.PAGE_SIZE),
                    bytesOf(Bio.bioForEachSegment(clone, new BvecIter())));
            BlockBio.bioPut(clone);
            BlockBio.bioPut(parent);
        });
    }

    @Test
    void iteratingAFastCloneWithASavedIterWorksAfterItsBiIterWasConsumed() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(4);
            Bio parent = wholePages(layer, p);
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            BlockBio.bioTrim(clone, 3, 16);
            BvecIter saved = clone.biIter.copy();
            // what req_bio_endio() does before calling bi_end_io:
            BlockBio.bioAdvance(clone, clone.biIter.biSize);
            assertEquals(0, bytesOf(Bio.bioForEachSegment(clone, new BvecIter())).length,
                    "bio_for_each_segment on a completed bio sees nothing");
            byte[] window = Arrays.copyOfRange(concat(p), 3 * 512, 3 * 512 + 16 * 512);
            assertArrayEquals(window, bytesOf(Bio.__bioForEachSegment(clone, new BvecIter(), saved)),
                    "__bio_for_each_segment from the saved iter sees the clone's window");
            BlockBio.bioPut(clone);
            BlockBio.bioPut(parent);
        });
    }

    @Test
    void bioForEachSegmentAllOnAFastCloneIsABugOn() {
        Violation v = runViolating(ViolationKind.BUG_ON, () -> {
            BlockLayer layer = new BlockLayer();
            Bio parent = wholePages(layer, pages(2));
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            for (BioVec bv : Bio.bioForEachSegmentAll(clone)) {
                bv.bvPage.touch();
            }
        });
        assertTrue(v.getMessage().contains("bio_for_each_segment_all"), v.getMessage());
    }

    @Test
    void bioForEachSegmentAllOnTheOwnerWalksEveryBvecWhateverBiIterSays() {
        runClean(() -> {
            Page[] p = pages(3);
            Bio bio = wholePages(new BlockLayer(), p);
            BlockBio.bioAdvance(bio, bio.biIter.biSize);
            assertArrayEquals(concat(p), bytesOf(Bio.bioForEachSegmentAll(bio)));
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void bioTrimKeepsTheSectorWindowInsideTheSharedTable() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(3);
            Bio parent = wholePages(layer, p);
            parent.biIter.biSector = 100;
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            BlockBio.bioTrim(clone, 10, 9);
            assertEquals(110, clone.biIter.biSector);
            assertEquals(9 * 512, clone.biIter.biSize);
            assertEquals(1, clone.biIter.biIdx);
            assertEquals(2 * 512, clone.biIter.biBvecDone);
            BioChecks.checkInvariants(clone);
            assertArrayEquals(Arrays.copyOfRange(concat(p), 10 * 512, 19 * 512),
                    bytesOf(Bio.bioForEachSegment(clone, new BvecIter())));
            Bio whole = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            BlockBio.bioTrim(whole, 0, 24);
            assertEquals(parent.biIter.toString(), whole.biIter.toString(), "the whole bio: a no-op");
            BlockBio.bioPut(whole);
            BlockBio.bioPut(clone);
            BlockBio.bioPut(parent);
        });
    }

    /**
     * Catalog bug {@code bio-trim-relies-on-bi-vcnt} runs md_trim_bio()'s pre-immutable body: right
     * on a bio that owns its table (a {@code bio_clone_bioset()} copy, as md's clones were: the
     * table is cut and moved down to index 0), wrong on a fast clone, whose {@code bi_vcnt} of 0
     * leaves it at the parent's first byte.
     */
    @Test
    void theTrimThatReliesOnBiVcntIsRightOnATableOwnerAndWrongOnAFastClone() {
        runClean(Kconfig.defaults().withBug(BlockBugs.BIO_TRIM_RELIES_ON_BI_VCNT), () -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(3);
            Bio parent = wholePages(layer, p);
            parent.biIter.biSector = 100;
            byte[] window = Arrays.copyOfRange(concat(p), 10 * 512, 19 * 512);
            Bio owner = BlockBio.bioCloneBioset(parent, layer.fsBioSet);
            BlockBio.bioTrim(owner, 10, 9);
            assertEquals(110, owner.biIter.biSector);
            assertEquals(0, owner.biIter.biIdx, "the kept bvecs moved down to index 0");
            assertEquals(2, owner.biVcnt, "the first bvec shortened, the last cut");
            BioChecks.checkInvariants(owner);
            assertArrayEquals(window, bytesOf(Bio.bioForEachSegment(owner, new BvecIter())));
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            BlockBio.bioTrim(clone, 10, 9);
            assertEquals(110, clone.biIter.biSector);
            assertEquals(0, clone.biIter.biIdx, "bi_vcnt is 0: nothing of the shared table moved");
            assertEquals(0, clone.biIter.biBvecDone);
            assertArrayEquals(Arrays.copyOfRange(concat(p), 0, 9 * 512), bytesOf(Bio.bioForEachSegment(clone, new BvecIter())),
                    "the window's sectors, but the parent's first bytes");
            BlockBio.bioPut(clone);
            BlockBio.bioPut(owner);
            BlockBio.bioPut(parent);
        });
    }

    @Test
    void bioTrimPastTheEndBreaksTheIterInvariant() {
        Violation v = runViolating(ViolationKind.BUG_ON, () -> {
            BlockLayer layer = new BlockLayer();
            Bio parent = wholePages(layer, pages(2));
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            BlockBio.bioTrim(clone, 8, 16);
            BioChecks.checkInvariants(clone);
        });
        assertTrue(v.getMessage().contains("bio invariant"), v.getMessage());
    }

    @Test
    void bioSplitClonesTheFrontAndAdvancesTheParent() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(3);
            Bio bio = wholePages(layer, p);
            bio.biIter.biSector = 40;
            Bio split = BlockBio.bioSplit(bio, 12, layer.fsBioSet);
            assertTrue(Bio.bioFlagged(split, BIO_CLONED));
            assertEquals(40, split.biIter.biSector);
            assertEquals(12 * 512, split.biIter.biSize);
            assertEquals(52, bio.biIter.biSector);
            assertEquals(12 * 512, bio.biIter.biSize);
            BioChecks.checkInvariants(split);
            BioChecks.checkInvariants(bio);
            byte[] all = concat(p);
            assertArrayEquals(Arrays.copyOfRange(all, 0, 6144), bytesOf(Bio.bioForEachSegment(split, new BvecIter())));
            assertArrayEquals(Arrays.copyOfRange(all, 6144, 12288), bytesOf(Bio.bioForEachSegment(bio, new BvecIter())));
            BlockBio.bioPut(split);
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void bioSplitOfTheWholeBioIsABugOn() {
        Violation v = runViolating(ViolationKind.BUG_ON, () -> {
            BlockLayer layer = new BlockLayer();
            Bio bio = wholePages(layer, pages(1));
            BlockBio.bioSplit(bio, 8, layer.fsBioSet);
        });
        assertTrue(v.getMessage().contains(", 8): not less than bio_sectors 8"), v.getMessage());
    }

    @Test
    void bioCloneBiosetOwnsItsTableAndOutlivesItsSource() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(3);
            Bio parent = wholePages(layer, p);
            BlockBio.bioAdvance(parent, 1536);
            Bio copy = BlockBio.bioCloneBioset(parent, layer.fsBioSet);
            assertFalse(Bio.bioFlagged(copy, BIO_CLONED));
            assertSame(copy, copy.ioVecOwner());
            assertEquals(3, copy.biVcnt, "one bvec per segment of the source's iter");
            assertEquals(0, copy.biIter.biIdx);
            assertEquals(0, copy.biIter.biBvecDone);
            assertEquals(1536, copy.ioVec()[0].bvOffset);
            BlockBio.bioPut(parent);
            BioChecks.checkInvariants(copy);
            assertArrayEquals(Arrays.copyOfRange(concat(p), 1536, 3 * Page.PAGE_SIZE), bytesOf(Bio.bioForEachSegmentAll(copy)));
            BlockBio.bioPut(copy);
        });
    }

    @Test
    void bioCloneBiosetPartialCopiesOnlyTheWindow() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(3);
            Bio parent = wholePages(layer, p);
            Bio copy = BlockBio.bioCloneBiosetPartial(parent, layer.fsBioSet, 4096 + 512, 4096);
            assertEquals(2, copy.biVcnt);
            assertEquals(9, copy.biIter.biSector);
            assertArrayEquals(Arrays.copyOfRange(concat(p), 4608, 8704), bytesOf(Bio.bioForEachSegmentAll(copy)));
            BlockBio.bioPut(copy);
            BlockBio.bioPut(parent);
        });
    }

    @Test
    void aSecondBioPutIsADoubleRelease() {
        Violation v = runViolating(ViolationKind.DOUBLE_RELEASE, () -> {
            Bio bio = BlockBio.bioAlloc(new BlockLayer(), 1);
            BlockBio.bioPut(bio);
            BlockBio.bioPut(bio);
        });
        assertTrue(v.getMessage().contains("bio0"), v.getMessage());
    }

    @Test
    void bioGetMakesTheLastOfTwoPutsFreeAndAThirdPutADoubleRelease() {
        runClean(() -> {
            Bio bio = BlockBio.bioAlloc(new BlockLayer(), 1);
            Bio.bioGet(bio);
            BlockBio.bioPut(bio);
            assertFalse(bio.isFreed());
            BlockBio.bioPut(bio);
            assertTrue(bio.isFreed());
        });
        runViolating(ViolationKind.DOUBLE_RELEASE, () -> {
            Bio bio = BlockBio.bioAlloc(new BlockLayer(), 1);
            Bio.bioGet(bio);
            BlockBio.bioPut(bio);
            BlockBio.bioPut(bio);
            BlockBio.bioPut(bio);
        });
    }

    @Test
    void aBioNeverPutIsAReferenceLeak() {
        Violation v = runViolating(ViolationKind.REF_LEAK, () -> BlockBio.bioAlloc(new BlockLayer(), 1));
        assertTrue(v.getMessage().contains("bio bio0"), v.getMessage());
    }

    @Test
    void readingTheTableThroughAFastCloneAfterTheParentWasFreedIsUseAfterFree() {
        Violation v = runViolating(ViolationKind.USE_AFTER_FREE, () -> {
            BlockLayer layer = new BlockLayer();
            Bio parent = wholePages(layer, pages(2));
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            BlockBio.bioPut(parent);
            bytesOf(Bio.bioForEachSegment(clone, new BvecIter()));
        });
        assertTrue(v.getMessage().contains("bio0"), v.getMessage());
    }

    @Test
    void bioChainRunsTheParentsEndIoOnlyAfterBothCompletedAndPassesTheChildsError() {
        runClean(() -> {
            BlockLayer layer = new BlockLayer();
            Bio parent = BlockBio.bioAlloc(layer, 1);
            Bio child = BlockBio.bioAlloc(layer, 1);
            int[] calls = new int[1];
            int[] status = new int[1];
            parent.biEndIo = b -> {
                calls[0]++;
                status[0] = b.biStatus;
            };
            BlockBio.bioChain(child, parent);
            assertEquals(2, parent.peekRemaining());
            child.biStatus = BlkTypes.BLK_STS_IOERR;
            BlockBio.bioEndio(child);
            assertTrue(child.isFreed(), "a chained child is put when it completes");
            assertEquals(0, calls[0], "the parent waits for its own completion");
            BlockBio.bioEndio(parent);
            assertEquals(1, calls[0]);
            assertEquals(BlkTypes.BLK_STS_IOERR, status[0], "the child's error reaches the parent");
            assertFalse(Bio.bioFlagged(parent, BlkTypes.BIO_CHAIN));
            BlockBio.bioPut(parent);
        });
    }

    @Test
    void advancingPastTheEndOfTheIterIsAWarning() {
        Violation v = runViolating(ViolationKind.BUG_ON, () -> {
            Bio bio = wholePages(new BlockLayer(), pages(1));
            BlockBio.bioAdvance(bio, Page.PAGE_SIZE + 512);
        });
        assertTrue(v.getMessage().contains("advance past end"), v.getMessage());
    }

    @Test
    void bioAddPageOnAFastCloneIsAWarning() {
        Violation v = runViolating(ViolationKind.BUG_ON, () -> {
            BlockLayer layer = new BlockLayer();
            Page[] p = pages(2);
            Bio parent = BlockBio.bioAlloc(layer, 2);
            BlockBio.bioAddPage(parent, p[0], 4096, 0);
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            BlockBio.bioAddPage(clone, p[1], 4096, 0);
        });
        assertTrue(v.getMessage().startsWith("WARN_ON: __bio_try_merge_page() on cloned "), v.getMessage());
    }

    @Test
    void biosAreNamedInCreationOrderWithinAnExecution() {
        for (int run = 0; run < 2; run++) {
            runClean(() -> {
                BlockLayer layer = new BlockLayer();
                Bio a = BlockBio.bioAlloc(layer, 1);
                Bio b = BlockBio.bioCloneFast(a, layer.fsBioSet);
                assertEquals("bio0", a.name());
                assertEquals("bio1", b.name());
                BlockBio.bioPut(b);
                BlockBio.bioPut(a);
            });
        }
    }

    @Test
    void reqRaheadImpliesNowaitOnlyWithTheSeedPatch() {
        Kconfig merged = Kconfig.defaults();
        Kconfig patched = merged.with(BlockOptions.REQ_RAHEAD_NOWAIT, true);
        assertEquals(BlkTypes.REQ_RAHEAD_BIT | BlkTypes.REQ_NOWAIT, BlkTypes.reqRahead(patched));
        assertEquals(BlkTypes.REQ_RAHEAD_BIT, BlkTypes.reqRahead(merged), "the default is v5.10's REQ_RAHEAD");
        assertEquals(1L << 19, BlkTypes.REQ_RAHEAD_BIT);
        assertEquals(1L << 21, BlkTypes.REQ_NOWAIT);
        long[] seen = new long[1];
        ExecutionResult r = Run.task(merged, () -> seen[0] = BlkTypes.reqRahead());
        assertNull(r.violation());
        assertEquals(BlkTypes.REQ_RAHEAD_BIT, seen[0], "model code reads the running configuration");
    }

    @Test
    void blkStatusToErrnoFollowsTheKernelTable() {
        assertEquals(0, BlkCore.blkStatusToErrno(BlkTypes.BLK_STS_OK));
        assertEquals(-11, BlkCore.blkStatusToErrno(BlkTypes.BLK_STS_AGAIN));
        assertEquals(-5, BlkCore.blkStatusToErrno(BlkTypes.BLK_STS_IOERR));
        assertEquals(-95, BlkCore.blkStatusToErrno(BlkTypes.BLK_STS_NOTSUPP));
        assertEquals(-12, BlkCore.blkStatusToErrno(BlkTypes.BLK_STS_RESOURCE));
    }
}
