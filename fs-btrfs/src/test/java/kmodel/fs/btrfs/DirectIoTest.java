package kmodel.fs.btrfs;

import static kmodel.fs.btrfs.BtrfsTesting.runClean;
import static kmodel.fs.btrfs.BtrfsTesting.runViolating;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Errno;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import org.junit.jupiter.api.Test;

/**
 * Direct I/O (seed 001) on the non-preemptive schedule: the split at stripe boundaries in both
 * forms ({@code BTRFS_DIO_CLONE}), the per-piece end_io walk, checksums and repair.
 */
class DirectIoTest {
    static final int P = Page.PAGE_SIZE;
    static final int STRIPE = MapLookup.BTRFS_STRIPE_LEN;

    static Kconfig form(int f) {
        return Kconfig.defaults().with(BtrfsOptions.BTRFS_DIO_CLONE, f);
    }

    /** A volume of {@code profile} with one regular file of {@code pages} pages at the chunk's start. */
    static BtrfsTesting.World file(BtrfsTesting.World w, BtrfsVolume.Profile profile, int pages, boolean nodatacow) {
        w.vol = BtrfsVolume.mkfs(profile, false);
        BtrfsVolume.FileBuilder b = w.vol.file("f");
        b.regular(0, (long) pages * P);
        if (nodatacow) {
            b.nodatacow();
        }
        w.inode = b.create();
        w.file = w.vol.open(w.inode, "f.f0", 0);
        return w;
    }

    /** {@code pread(O_DIRECT)}: returns the result; the bytes land in {@code out[0]}. */
    static long directRead(BtrfsTesting.World w, long pos, int len, byte[][] out) {
        IovIter iter = new IovIter(len);
        long ret = DirectIo.btrfsDirectIO(new Kiocb(w.file, pos, Kiocb.IOCB_DIRECT), iter, false);
        out[0] = iter.buf;
        return ret;
    }

    /** A direct read of {@code len} bytes at {@code pos} that must return the file's bytes. */
    static void readExpectingFile(BtrfsTesting.World w, long pos, int len) {
        byte[][] out = new byte[1][];
        assertEquals(len, directRead(w, pos, len, out));
        BtrfsVolume.expectBytes(w.inode, pos, out[0], 0, len);
    }

    /**
     * The pieces of one direct I/O tile it exactly: contiguous in the file and on disk from
     * {@code pos}, {@code len} bytes in all, every piece within one stripe, and every cut at a
     * stripe boundary.
     */
    static void assertTiles(List<long[]> windows, long logical0, long pos, int len) {
        long file = pos;
        long logical = logical0;
        for (long[] wdw : windows) {
            assertEquals(file, wdw[0], "file offset");
            assertEquals(logical, wdw[1], "logical");
            long off = wdw[1] - BtrfsVolume.CHUNK_START;
            assertEquals(off / STRIPE, (off + wdw[2] - 1) / STRIPE, "piece crosses a stripe: " + wdw[1] + " +" + wdw[2]);
            file += wdw[2];
            logical += wdw[2];
            if (file < pos + len) {
                assertEquals(0, (logical - BtrfsVolume.CHUNK_START) % STRIPE, "cut off a stripe boundary at " + logical);
            }
        }
        assertEquals(pos + len, file, "the pieces do not cover the request");
    }

    static final int[][] REQUESTS = {
        /* {pos, len, pieces}: start mid-stripe and cross 1, 2, 3 boundaries; sector-aligned odd sizes; no split */
        {15 * P, 2 * P, 2},
        {15 * P, 18 * P, 3},
        {P, 49 * P, 4},
        {14 * P, 3 * P, 2},
        {0, 19 * P, 2},
        {2 * P, 3 * P, 1},
        {16 * P, 16 * P, 1},
    };

    @Test
    void theSplitTilesTheRequestAtStripeBoundariesInBothForms() {
        for (int f = 0; f <= 1; f++) {
            for (int[] rq : REQUESTS) {
                final List<long[]> windows = new ArrayList<>();
                final long[] logical0 = new long[1];
                final BtrfsStats[] stats = new BtrfsStats[1];
                runClean(form(f), w -> file(w, BtrfsVolume.Profile.RAID0, 64, false), w -> {
                    logical0[0] = w.vol.logicalOf(w.inode, rq[0]);
                    readExpectingFile(w, rq[0], rq[1]);
                    windows.addAll(w.vol.fsInfo.stats.dioWindows);
                    stats[0] = w.vol.fsInfo.stats;
                });
                final int ff = f;
                assertEquals(rq[2], windows.size(), () -> "form " + ff + ", request " + rq[0] + " +" + rq[1] + ": " + stats[0]);
                assertTiles(windows, logical0[0], rq[0], rq[1]);
                assertEquals(1, stats[0].dioBios);
                if (f == BtrfsOptions.DIO_CLONE_FAST) {
                    /* orig_bio plus one partial clone per piece (none when unsplit); no table copied */
                    assertEquals(rq[2] == 1 ? 1 : 1 + rq[2], stats[0].fastClones, stats[0]::toString);
                    assertEquals(0, stats[0].biosetClones, stats[0]::toString);
                    assertEquals(0, stats[0].bvecBytesCopied, stats[0]::toString);
                } else {
                    /* orig_bio copies the table once, the pieces copy every bvec again */
                    int pages = rq[1] / P;
                    assertEquals(0, stats[0].fastClones, stats[0]::toString);
                    assertEquals(1, stats[0].biosetClones, stats[0]::toString);
                    assertEquals((long) (rq[2] == 1 ? pages : 2 * pages) * DirectIo.SIZEOF_BIO_VEC, stats[0].bvecBytesCopied,
                            stats[0]::toString);
                }
            }
        }
    }

    /** A fast-clone piece starts where its window starts in the shared table: bi_idx moves, bi_bvec_done stays 0. */
    @Test
    void aFastClonePieceStartsMidTableAtItsOwnBvec() {
        final List<long[]> windows = new ArrayList<>();
        runClean(form(BtrfsOptions.DIO_CLONE_FAST), w -> file(w, BtrfsVolume.Profile.RAID0, 64, false), w -> {
            readExpectingFile(w, 15 * P, 18 * P);
            windows.addAll(w.vol.fsInfo.stats.dioWindows);
        });
        assertEquals(3, windows.size());
        assertArrayEquals(new long[] {0, 1, 17}, new long[] {windows.get(0)[3], windows.get(1)[3], windows.get(2)[3]});
        for (long[] wdw : windows) {
            assertEquals(0, wdw[4]);
        }
    }

    /**
     * The end_io walks each piece from its saved iter: a block corrupt on both mirrors in the
     * middle of the second piece is found at its own file offset and checksum; the call fails and
     * every other block reaches the buffer.
     */
    @Test
    void theEndioFindsABadBlockOfASecondPieceAtItsOwnChecksum() {
        for (int f = 0; f <= 1; f++) {
            final BtrfsStats[] stats = new BtrfsStats[1];
            runClean(form(f), DirectIoTest::bothMirrorsBad, w -> {
                readExpectingFileOrEio(w);
                stats[0] = w.vol.fsInfo.stats;
            });
            /* the read mirror, then the other one */
            assertEquals(2, stats[0].csumErrors, stats[0]::toString);
            assertEquals(1, stats[0].dioRepairs, stats[0]::toString);
            assertEquals(1, stats[0].dioRepairFailures, stats[0]::toString);
        }
    }

    private static void readExpectingFileOrEio(BtrfsTesting.World w) {
        byte[][] out = new byte[1][];
        /* block 17 is bad on both mirrors here: -EIO, every other block read */
        assertEquals(-Errno.EIO, directRead(w, 14L * P, 6 * P, out));
        for (int blk = 14; blk < 20; blk++) {
            if (blk != 17) {
                BtrfsVolume.expectBytes(w.inode, (long) blk * P, out[0], (blk - 14) * P, P);
            }
        }
    }

    @Test
    void aBadBlockOnOneMirrorIsRepairedFromTheOtherInBothForms() {
        for (int f = 0; f <= 1; f++) {
            for (int mirror = 1; mirror <= 2; mirror++) {
                final int m = mirror;
                final BtrfsStats[] stats = new BtrfsStats[1];
                runClean(form(f), w -> {
                    file(w, BtrfsVolume.Profile.RAID1, 24, false);
                    w.vol.corrupt(w.vol.logicalOf(w.inode, 17L * P + 5), m);
                    return w;
                }, w -> {
                    readExpectingFile(w, 14L * P, 6 * P);
                    stats[0] = w.vol.fsInfo.stats;
                });
                assertEquals(2, stats[0].dioPieces, stats[0]::toString);
            }
        }
    }

    /** nodatasum: an I/O error of a piece makes every block of it be re-read from the other mirror. */
    @Test
    void aNodatasumPieceWithAnIoErrorIsReadAgainFromTheOtherMirror() {
        for (int f = 0; f <= 1; f++) {
            for (int mirror = 1; mirror <= 2; mirror++) {
                final int m = mirror;
                final BtrfsStats[] stats = new BtrfsStats[1];
                runClean(form(f), w -> {
                    file(w, BtrfsVolume.Profile.RAID1, 24, true);
                    w.vol.badSector(w.vol.logicalOf(w.inode, 17L * P), m);
                    return w;
                }, w -> {
                    readExpectingFile(w, 14L * P, 6 * P);
                    stats[0] = w.vol.fsInfo.stats;
                });
                assertTrue(stats[0].dioRepairs == 0 || stats[0].dioRepairs == 4, stats[0]::toString);
            }
        }
    }

    /**
     * {@code btrfs-clone-first-bvec}: the repair decision reads {@code bi_io_vec[0]} of the failed
     * piece; on a v4.13 fast clone that is a {@code bug-on} (the WARN of bio_first_bvec_all), on
     * v4.12's own-table bios it is harmless.
     */
    @Test
    void theCloneFirstBvecBugIsABugOnWithFastClonesOnly() {
        Violation v = runViolating(form(BtrfsOptions.DIO_CLONE_FAST).withBug(BtrfsBugs.CLONE_FIRST_BVEC),
                ViolationKind.BUG_ON, DirectIoTest::bothMirrorsBad, w -> readExpectingFileOrEio(w));
        assertTrue(v.getMessage().contains("bio_first_bvec_all() on cloned"), v::summary);
        runClean(form(BtrfsOptions.DIO_CLONE_BIOSET).withBug(BtrfsBugs.CLONE_FIRST_BVEC), DirectIoTest::bothMirrorsBad,
                w -> readExpectingFileOrEio(w));
    }

    static BtrfsTesting.World bothMirrorsBad(BtrfsTesting.World w) {
        file(w, BtrfsVolume.Profile.RAID1, 24, false);
        long l = w.vol.logicalOf(w.inode, 17L * P + 5);
        w.vol.corrupt(l, 1);
        w.vol.corrupt(l, 2);
        return w;
    }

    /**
     * {@code btrfs-dio-repair-early-return}: block 16 unreadable on both mirrors, block 17 after
     * it in the same piece: with seed 001's "record error" block 17 is read from the other mirror
     * and reaches the reader although the call fails; the mutation returns at block 16.
     */
    @Test
    void theRepairLoopGoesOnAfterAnUnrepairableBlockUnlessTheEarlyReturnBugIsIn() {
        for (boolean nodatasum : new boolean[] {false, true}) {
            runClean(form(BtrfsOptions.DIO_CLONE_FAST), w -> unreadable16(w, nodatasum), DirectIoTest::expectBlock17);
            Violation v = runViolating(form(BtrfsOptions.DIO_CLONE_FAST).withBug(BtrfsBugs.DIO_REPAIR_EARLY_RETURN),
                    ViolationKind.WRONG_RESULT, w -> unreadable16(w, nodatasum), DirectIoTest::expectBlock17);
            assertTrue(v.getMessage().contains("good copy"), v::summary);
        }
    }

    static BtrfsTesting.World unreadable16(BtrfsTesting.World w, boolean nodatasum) {
        file(w, BtrfsVolume.Profile.RAID1, 24, nodatasum);
        long l = w.vol.logicalOf(w.inode, 16L * P);
        w.vol.badSector(l, 1);
        w.vol.badSector(l, 2);
        return w;
    }

    static void expectBlock17(BtrfsTesting.World w) {
        byte[][] out = new byte[1][];
        assertEquals(-Errno.EIO, directRead(w, 14L * P, 6 * P, out));
        /* block 17 has a good copy: it must reach the buffer although the call failed */
        for (int i = 0; i < P; i++) {
            if (out[0][3 * P + i] != w.inode.expected[17 * P + i]) {
                kmodel.kernel.Kernel.fail(ViolationKind.WRONG_RESULT, "block 17 has a good copy but was not read: "
                        + w.vol.fsInfo.stats);
            }
        }
    }

    /** RAID1 direct write (nodatacow, in place) crossing a stripe, then a direct read of it. */
    @Test
    void aDirectWriteCrossingAStripeIsReadBackInBothForms() {
        for (int f = 0; f <= 1; f++) {
            for (BtrfsVolume.Profile profile : new BtrfsVolume.Profile[] {BtrfsVolume.Profile.RAID0,
                BtrfsVolume.Profile.RAID1}) {
                final BtrfsStats[] stats = new BtrfsStats[1];
                runClean(form(f), w -> file(w, profile, 24, true), w -> {
                    IovIter iter = new IovIter(4 * P);
                    for (int i = 0; i < iter.buf.length; i++) {
                        iter.buf[i] = (byte) (i * 31 + 7);
                    }
                    byte[] data = iter.buf.clone();
                    assertEquals(4 * P, DirectIo.btrfsDirectIO(new Kiocb(w.file, 14L * P, Kiocb.IOCB_DIRECT), iter, true));
                    BtrfsVolume.wrote(w.inode, 14L * P, data, 0, data.length);
                    readExpectingFile(w, 12L * P, 8 * P);
                    stats[0] = w.vol.fsInfo.stats;
                });
                assertEquals(2 + 2, stats[0].dioPieces, stats[0]::toString);
            }
        }
    }

    /**
     * Seed 001's workload, one request of it ({@code xfs_io -d -c "pwrite -b 128K"} on two devices,
     * {@code nodatasum}): a 128 KiB direct write at a stripe boundary is cut into two 64 KiB pieces.
     * v4.12 copies the bvec table twice (into {@code orig_bio}, then into the pieces) and again for
     * each RAID1 mirror clone; v4.13 shares it (fast clones only).
     */
    @Test
    void theSeedsRequestCopiesBvecTablesOnlyInTheVanillaForm() {
        long[][] want = {
            /* {form, profile: 0 RAID0 / 1 RAID1, fast clones, bioset clones, bvec bytes copied, stripe bios} */
            {0, 0, 0, 1, 2 * 32 * 16, 2},
            {1, 0, 3, 0, 0, 2},
            {0, 1, 0, 3, 2 * 32 * 16 + 32 * 16, 4},
            {1, 1, 5, 0, 0, 4},
        };
        for (long[] row : want) {
            final BtrfsStats[] stats = new BtrfsStats[1];
            BtrfsVolume.Profile profile = row[1] == 0 ? BtrfsVolume.Profile.RAID0 : BtrfsVolume.Profile.RAID1;
            runClean(form((int) row[0]), w -> file(w, profile, 48, true), w -> {
                IovIter iter = new IovIter(32 * P);
                assertEquals(32 * P, DirectIo.btrfsDirectIO(new Kiocb(w.file, 0, Kiocb.IOCB_DIRECT), iter, true));
                stats[0] = w.vol.fsInfo.stats;
            });
            String what = "form " + row[0] + " " + profile + ": " + stats[0];
            assertEquals(2, stats[0].dioPieces, what);
            assertEquals(row[2], stats[0].fastClones, what);
            assertEquals(row[3], stats[0].biosetClones, what);
            assertEquals(row[4], stats[0].bvecBytesCopied, what);
            assertEquals(row[5], stats[0].stripeBios, what);
            assertEquals(java.util.Map.of(16, 2L), stats[0].dioPagesPerBio(), what);
        }
    }

    @Test
    void aDirectWriteToACowFileReturnsEnotblk() {
        runClean(Kconfig.defaults(), w -> file(w, BtrfsVolume.Profile.SINGLE, 4, false), w -> {
            IovIter iter = new IovIter(P);
            assertEquals(-Errno.ENOTBLK, DirectIo.btrfsDirectIO(new Kiocb(w.file, 0, Kiocb.IOCB_DIRECT), iter, true));
        });
    }

    @Test
    void aHoleReadsAsZeros() {
        runClean(Kconfig.defaults(), w -> {
            w.vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
            BtrfsVolume.FileBuilder b = w.vol.file("f");
            b.regular(0, 2L * P);
            b.hole(2L * P, 2L * P);
            b.regular(4L * P, 2L * P);
            w.inode = b.create();
            w.file = w.vol.open(w.inode, "f.f0", 0);
            return w;
        }, w -> readExpectingFile(w, 0, 6 * P));
    }
}
