package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.List;
import kmodel.fs.btrfs.BtrfsFile;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Sched;
import kmodel.mm.File;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.sim.world.BtrfsDioWorld;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios of btrfs direct I/O (seed 001): direct reads and writes split at stripe boundaries
 * ({@code btrfs_submit_direct()}, either form of {@code BTRFS_DIO_CLONE}), their pieces
 * completing in any order in interrupt context and on the end_io workers, and direct-read repair
 * from the other RAID1 mirror. Each run checks the bytes every call returned, the page cache,
 * page and bio references (user pages included), and that every request tag is free;
 * {@code pages/piece} is in the outcome.
 */
public final class BtrfsDioScenarios {
    private static final int P = Page.PAGE_SIZE;

    private BtrfsDioScenarios() {
    }

    /** Registers the direct I/O scenarios of the default check. */
    public static void registerAll(ScenarioSet r) {
        r.register(raid0Write());
        r.register(raid0Read());
        r.register(raid1Repair());
        r.register(raid1NodatasumEio());
    }

    /**
     * Registers the direct I/O scenarios too large for the default check: several synchronous
     * I/Os in a row multiply, because each one's interrupt tails (request and tag freeing after
     * the waiter was woken) race with the next one's submission.
     */
    public static void registerLarge(ScenarioSet r) {
        r.register(raid0WriteRead());
        r.register(writeOverCached());
    }

    /**
     * {@code btrfs-dio-write-cached}: on a RAID0 {@code nodatacow} file, t1 reads 8 KiB buffered
     * across the 64 KiB stripe boundary (pages 15-16 cached), writes them with {@code O_DIRECT},
     * then reads them back buffered. The direct write ({@code generic_file_direct_write()}) writes
     * back and then invalidates the cached pages ({@code invalidate_inode_pages2_range()}) before
     * and after the I/O, racing the read's completions (interrupts unlocking the pages); the
     * read-back must see the new bytes, not the stale cached ones.
     */
    static Scenario<BtrfsDioWorld> writeOverCached() {
        return Scenario.<BtrfsDioWorld>named("btrfs-dio-write-cached",
                "RAID0: a buffered read caches two pages, a direct write over them invalidates them; buffered read-back")
                .autoBound(1)
                .setup(() -> new BtrfsDioWorld(BtrfsVolume.Profile.RAID0, 20, true))
                .task("t1", w -> {
                    w.bufferedReadExpectingFile(15L * P, 2 * P);
                    w.directWrite(15L * P, 2 * P);
                    w.bufferedReadExpectingFile(15L * P, 2 * P);
                })
                .atEnd(w -> w.vol.checkAtEnd())
                .outcome(BtrfsDioWorld::outcome)
                .build();
    }

    /**
     * {@code btrfs-dio-raid0-write}: a direct write of 8 KiB across the 64 KiB stripe boundary of a
     * RAID0 {@code nodatacow} file: two pieces, one per device, completing in any order; the call
     * returns its bytes, and at the end the devices hold them.
     */
    static Scenario<BtrfsDioWorld> raid0Write() {
        return Scenario.<BtrfsDioWorld>named("btrfs-dio-raid0-write",
                "RAID0: a direct write split at a stripe boundary, its pieces completing in any order")
                .setup(() -> new BtrfsDioWorld(BtrfsVolume.Profile.RAID0, 20, true))
                .task("t1", w -> w.directWrite(15L * P, 2 * P))
                .atEnd(w -> {
                    w.vol.checkAtEnd();
                    w.vol.expectDisksMatchFile(w.inode);
                })
                .outcome(BtrfsDioWorld::outcome)
                .build();
    }

    /**
     * {@code btrfs-dio-raid0-read}: a direct read of 8 KiB across the 64 KiB stripe boundary of a
     * checksummed RAID0 file: two pieces, each verified on the end_io workers from its own saved
     * {@code iter} against its part of the dio's checksums, completing in any order.
     */
    static Scenario<BtrfsDioWorld> raid0Read() {
        return Scenario.<BtrfsDioWorld>named("btrfs-dio-raid0-read",
                "RAID0: a direct read split at a stripe boundary, each piece checked from its saved iter, any order")
                .setup(() -> new BtrfsDioWorld(BtrfsVolume.Profile.RAID0, 20, false))
                .task("t1", w -> w.directReadExpectingFile(15L * P, 2 * P))
                .atEnd(w -> w.vol.checkAtEnd())
                .outcome(BtrfsDioWorld::outcome)
                .build();
    }

    /**
     * {@code btrfs-dio-raid0}: on a RAID0 {@code nodatacow} file, t1 writes 8 KiB directly across
     * the 64 KiB stripe boundary, reads it back directly, then buffered. Each direct I/O is cut
     * into two pieces, one per device, whose completions (interrupts, and the end_io workers of the
     * read) run in any order; every call returns its bytes and both read-backs equal what was
     * written.
     */
    static Scenario<BtrfsDioWorld> raid0WriteRead() {
        return Scenario.<BtrfsDioWorld>named("btrfs-dio-raid0",
                "RAID0: a direct write, a direct read, each split at a stripe boundary, completions in any order; buffered read-back")
                .setup(() -> new BtrfsDioWorld(BtrfsVolume.Profile.RAID0, 20, true))
                .task("t1", w -> {
                    w.directWrite(15L * P, 2 * P);
                    w.directReadExpectingFile(15L * P, 2 * P);
                    w.bufferedReadExpectingFile(15L * P, 2 * P);
                })
                .atEnd(w -> w.vol.checkAtEnd())
                .outcome(BtrfsDioWorld::outcome)
                .build();
    }

    /**
     * {@code btrfs-dio-raid1-repair}: an 8 KiB direct read of a checksummed RAID1 file from block
     * 15 is cut at the 64 KiB boundary (block 15 | block 16); block 15 is corrupt on mirror 2 and
     * block 16 on mirror 1, so whichever mirror serves the read ({@code pid % 2}), one piece has
     * a bad block; the piece's end_io finds it at its own checksum (the piece's saved
     * {@code iter}, its {@code csum} pointing into the whole dio's) and repairs it from the other
     * mirror. The reader gets the file's bytes.
     */
    static Scenario<BtrfsDioWorld> raid1Repair() {
        return Scenario.<BtrfsDioWorld>named("btrfs-dio-raid1-repair",
                "RAID1: a direct read split at a stripe boundary, a corrupt block in one piece: repaired from the other mirror")
                .setup(() -> {
                    BtrfsDioWorld w = new BtrfsDioWorld(BtrfsVolume.Profile.RAID1, 20, false);
                    w.vol.corrupt(w.vol.logicalOf(w.inode, 15L * P + 9), 2);
                    w.vol.corrupt(w.vol.logicalOf(w.inode, 16L * P + 9), 1);
                    return w;
                })
                .task("t1", w -> w.directReadExpectingFile(15L * P, 2 * P))
                .atEnd(w -> w.vol.checkAtEnd())
                .outcome(BtrfsDioWorld::outcome)
                .build();
    }

    /**
     * {@code btrfs-dio-raid1-eio}: an 8 KiB direct read of a RAID1 {@code nodatasum} file, blocks
     * 16-17 (within one stripe: {@code orig_bio} is submitted whole), where block 16 cannot be
     * read on either mirror: the bio fails, and {@code __btrfs_correct_data_nocsum()} re-reads block
     * 16 from the other mirror (fails again: recorded) and then block 17 (succeeds). The call
     * returns {@code -EIO}; block 17, which has good copies, must still reach the buffer (seed 001,
     * "record error if one block has failed to retry"), else {@code wrong-result}.
     */
    static Scenario<BtrfsDioWorld> raid1NodatasumEio() {
        return Scenario.<BtrfsDioWorld>named("btrfs-dio-raid1-eio",
                "RAID1 nodatasum: a direct read with a block unreadable on both mirrors: -EIO, the rest of the bio retried")
                .setup(() -> {
                    BtrfsDioWorld w = new BtrfsDioWorld(BtrfsVolume.Profile.RAID1, 20, true);
                    long l = w.vol.logicalOf(w.inode, 16L * P);
                    w.vol.badSector(l, 1);
                    w.vol.badSector(l, 2);
                    return w;
                })
                .task("t1", w -> {
                    byte[][] out = new byte[1][];
                    long ret = w.directRead(16L * P, 2 * P, out);
                    if (ret != -Errno.EIO) {
                        Kernel.fail(ViolationKind.WRONG_RESULT, "direct read over an unreadable block returned "
                                + Errno.name(ret));
                    }
                    byte[] want = w.inode.expectedContents();
                    for (int blk = 16; blk < 18; blk++) {
                        if (blk == 16) {
                            continue;
                        }
                        for (int i = 0; i < P; i++) {
                            if (out[0][(blk - 16) * P + i] != want[blk * P + i]) {
                                Kernel.fail(ViolationKind.WRONG_RESULT, "block " + blk + " has a good copy but did not reach"
                                        + " the buffer of the failed direct read (" + w.vol.fsInfo.stats + ")");
                            }
                        }
                    }
                })
                .atEnd(w -> w.vol.checkAtEnd())
                .outcome(BtrfsDioWorld::outcome)
                .build();
    }
}
