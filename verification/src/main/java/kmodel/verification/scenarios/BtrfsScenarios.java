package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Sched;
import kmodel.mm.File;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.sim.world.BtrfsReads;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * Scenarios of btrfs' buffered read path (seed 000): readers of one file through
 * {@code generic_file_read_iter()} and read-ahead into {@code extent_readahead()} (or the
 * {@code ->readpages} loops, {@code BTRFS_READPAGES}), bios mapped to the volume's disks and
 * completed in interrupt context with checksum verification and read repair. Each run checks the
 * bytes every reader got, the page cache's and the extent map tree's references, that no page is
 * left locked and every request tag is free; {@code pages/bio} is in the outcome.
 */
public final class BtrfsScenarios {
    private static final int PAGE = Page.PAGE_SIZE;

    private BtrfsScenarios() {
    }

    /** Registers the btrfs scenarios of the default check. */
    public static void registerAll(ScenarioSet r) {
        r.register(readers("btrfs-2-readers-1page", 2, 1));
        r.register(raid1BadMirror());
        r.register(raid1BothBad());
        BtrfsReadScenarios.registerAll(r);
        BtrfsDioScenarios.registerAll(r);
    }

    /** Registers the btrfs scenarios too large for the default check. */
    public static void registerLarge(ScenarioSet r) {
        r.register(readers("btrfs-2-readers", 2, 2));
        r.register(readers("btrfs-3-readers", 3, 3));
        r.register(readers("btrfs-4-readers", 4, 4));
        r.register(raid1IoErrorValidate());
        BtrfsReadScenarios.registerLarge(r);
        BtrfsDioScenarios.registerLarge(r);
    }

    /** A volume, one file, and the readers' results. */
    static final class World {
        final BtrfsVolume vol;
        final BtrfsInode inode;
        final int raPages;
        final Map<String, List<String>> results = new TreeMap<>();
        /** One open file per reader ({@code btrfs_file_open()}), by task name, opened at set-up. */
        private final Map<String, File> files = new TreeMap<>();

        World(BtrfsVolume.Profile profile, int pages, int raPages) {
            vol = BtrfsVolume.mkfs(profile, false);
            BtrfsVolume.FileBuilder b = vol.file("f");
            b.regular(0, (long) pages * PAGE);
            inode = b.create();
            this.raPages = raPages;
            for (int i = 1; i <= 4; i++) {
                files.put("t" + i, vol.open(inode, "f.t" + i, raPages));
            }
        }

        /** A reader's {@code read(2)} of {@code len} bytes at {@code pos} on a file of its own. */
        long read(long pos, int len) {
            return BtrfsReads.readAndCheck(files.get(Sched.current().name()), inode, pos, len, results);
        }

        void check() {
            vol.checkAtEnd();
        }

        String outcome() {
            StringBuilder sb = new StringBuilder();
            results.forEach((task, rs) -> sb.append(task).append('=').append(Texts.join(",", rs)).append(' '));
            return sb.append("pages/bio ").append(vol.fsInfo.stats.pagesPerBio()).toString();
        }
    }

    /**
     * {@code btrfs-N-readers}: seed 000's t1..t4 picture with N readers: each reads the same
     * {@code pages}-page file in full with read-ahead of as many pages, racing on
     * {@code add_to_page_cache_lru()}.
     */
    static Scenario<World> readers(String name, int n, int pages) {
        Scenario.Builder<World> b = Scenario.<World>named(name, n + " readers read the same " + pages
                + "-page btrfs file with read-ahead (seed 000's t1..t4 race)")
                .setup(() -> new World(BtrfsVolume.Profile.SINGLE, pages, pages));
        for (int i = 1; i <= n; i++) {
            b.task("t" + i, w -> w.read(0, pages * PAGE));
        }
        return b.atEnd(World::check).outcome(World::outcome).build();
    }

    /**
     * {@code btrfs-raid1-bad-mirror}: a 3-block RAID1 file whose block 0 is corrupt on mirror 1 and
     * block 1 on mirror 2, read with read-ahead by one reader: whichever mirror it reads
     * ({@code pid % 2}), one block fails its checksum and is repaired from the other mirror, and the
     * block after it in the same bio is verified next. Every block has a good copy, so the reader
     * gets the file's bytes, and read repair must never give up on a page: a page ended in error
     * here is reported as {@code bug-on}.
     */
    static Scenario<World> raid1BadMirror() {
        return Scenario.<World>named("btrfs-raid1-bad-mirror",
                "a read of a RAID1 file with a corrupt block on each mirror (never the same one): read repair")
                .setup(() -> {
                    World w = new World(BtrfsVolume.Profile.RAID1, 3, 3);
                    w.vol.corrupt(w.vol.logicalOf(w.inode, 7), 1);
                    w.vol.corrupt(w.vol.logicalOf(w.inode, PAGE + 7), 2);
                    return w;
                })
                .task("t1", w -> w.read(0, 3 * PAGE))
                .atEnd(w -> {
                    w.check();
                    if (w.vol.fsInfo.stats.pageErrors != 0) {
                        Kernel.fail(ViolationKind.BUG_ON, "read repair gave up on " + w.vol.fsInfo.stats.pageErrors
                                + " page(s) although every block has a good copy (" + w.vol.fsInfo.stats + ")");
                    }
                })
                .outcome(World::outcome)
                .build();
    }

    /**
     * {@code btrfs-raid1-ioerr} (large): as {@code btrfs-raid1-bad-mirror}, but the bad blocks are
     * device read errors (block 0 unreadable on mirror 1, block 1 on mirror 2), not checksum
     * failures: the read-ahead bio of three blocks fails as a whole ({@code bi_status}), so which
     * block failed is not known and read repair validates each block of it
     * ({@code btrfs_io_needs_validation()}: re-read alone from the other mirror, in validation
     * until one succeeds). The reader gets the file's bytes and no page is ended in error.
     */
    static Scenario<World> raid1IoErrorValidate() {
        return Scenario.<World>named("btrfs-raid1-ioerr",
                "a RAID1 read-ahead bio fails with a device error: each of its blocks validated from the other mirror")
                .autoBound(1)
                .setup(() -> {
                    World w = new World(BtrfsVolume.Profile.RAID1, 3, 3);
                    w.vol.badSector(w.vol.logicalOf(w.inode, 0), 1);
                    w.vol.badSector(w.vol.logicalOf(w.inode, PAGE), 2);
                    return w;
                })
                .task("t1", w -> w.read(0, 3 * PAGE))
                .atEnd(w -> {
                    w.check();
                    if (w.vol.fsInfo.stats.pageErrors != 0) {
                        Kernel.fail(ViolationKind.BUG_ON, "read repair gave up on " + w.vol.fsInfo.stats.pageErrors
                                + " page(s) although every block has a good copy (" + w.vol.fsInfo.stats + ")");
                    }
                })
                .outcome(World::outcome)
                .build();
    }

    /**
     * {@code btrfs-raid1-both-bad}: the one block of a RAID1 file is corrupt on both mirrors; a
     * read of it ends in {@code -EIO} after read-ahead, the read path's own {@code ->readpage()}
     * retry and read repair from the other mirror each time; nothing leaked, no page left locked.
     */
    static Scenario<World> raid1BothBad() {
        return Scenario.<World>named("btrfs-raid1-both-bad",
                "a read of a RAID1 file whose block is corrupt on both mirrors: -EIO, nothing leaked")
                .setup(() -> {
                    World w = new World(BtrfsVolume.Profile.RAID1, 1, 1);
                    long l = w.vol.logicalOf(w.inode, 0);
                    w.vol.corrupt(l, 1);
                    w.vol.corrupt(l, 2);
                    return w;
                })
                .task("t1", w -> expectEio(w.read(0, PAGE)))
                .atEnd(World::check)
                .outcome(World::outcome)
                .build();
    }

    private static void expectEio(long ret) {
        if (ret != -Errno.EIO) {
            Kernel.fail(ViolationKind.DATA_CORRUPTION, "read of a block bad on every mirror returned " + Errno.name(ret));
        }
    }
}
