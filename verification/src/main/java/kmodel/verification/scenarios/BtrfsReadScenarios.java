package kmodel.verification.scenarios;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.fs.btrfs.BtrfsPunchHole;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.fs.btrfs.FileExtentItem;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Completion;
import kmodel.kernel.sched.Sched;
import kmodel.mm.File;
import kmodel.mm.Page;
import kmodel.sim.world.BtrfsReads;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;
import kmodel.verification.world.ScenarioSet;

/**
 * The remaining buffered-read scenarios of seed 000's read path (issue 8): the page pool's
 * allocation-failure fallback, a bio allocation failure in the middle of a batch, and compressed
 * and shared (reflinked) extents read by racing readers through read-ahead calls that span
 * several 16-page batches. Each run checks the bytes every reader got, the page cache's and the
 * extent map tree's references, that no page is left locked and every request tag is free
 * ({@link BtrfsVolume#checkAtEnd}); {@code pages/bio} is in the outcome.
 *
 * <p>Every scenario here reads through whichever read-ahead entry point {@code BTRFS_READPAGES}
 * selects (default v5.10's {@code extent_readahead()}); lay {@code --set BTRFS_READPAGES=0..2} over
 * them for seed 000's {@code ->readpages} loops.
 */
public final class BtrfsReadScenarios {
    private static final int PAGE = Page.PAGE_SIZE;

    private BtrfsReadScenarios() {
    }

    /** Registers the scenarios of the default check. */
    public static void registerAll(ScenarioSet r) {
        r.register(pagepoolNomem());
        r.register(bioAllocFail("btrfs-bio-alloc-fail", false));
        r.register(punchCompressedShared("btrfs-punch-compressed-shared", false));
    }

    /** Registers the scenarios too large for the default check. */
    public static void registerLarge(ScenarioSet r) {
        r.register(bioAllocFail("btrfs-bio-alloc-fail-2-readers", true));
        r.register(compressedShared());
        r.register(compressedSharedBatches());
        r.register(punchCompressedShared("btrfs-punch-compressed-shared-2-readers", true));
        r.register(inlineRead());
        r.register(holeThenExtent());
    }

    /**
     * {@code btrfs-inline-read} (large): a file of 3,000 bytes stored inline (in its file-extent
     * item, {@code BTRFS_FILE_EXTENT_INLINE}) is read by two readers, t1 with read-ahead, t2
     * without: whichever gets page 0 copies the inline bytes into it in {@code btrfs_get_extent()}
     * and zeroes the rest of the page; the extent map it caches is inline, which a later lookup
     * for a page must not use (it reads the item again). Each reader gets the 3,000 bytes.
     */
    static Scenario<World> inlineRead() {
        return Scenario.<World>named("btrfs-inline-read",
                "two readers (with and without read-ahead) of a 3,000-byte file stored inline")
                .autoBound(1)
                .setup(() -> {
                    BtrfsVolume vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
                    BtrfsVolume.FileBuilder b = vol.file("f");
                    b.inline(3000);
                    return new World(vol, b.create(), 4, 0);
                })
                .task("t1", w -> w.read(0, PAGE))
                .task("t2", w -> w.read(0, PAGE))
                .atEnd(World::check)
                .outcome(World::outcome)
                .build();
    }

    /**
     * {@code btrfs-hole-extent} (large): a 3-page file whose first page is a hole with no item
     * ({@code NO_HOLES}) and whose pages 1-2 are one extent. t1 reads the whole file with
     * read-ahead (its lookup at 0 builds a hole map up to the extent, which starts inside the
     * range asked for); t2 reads page 1 without read-ahead, and may cache the extent's map first,
     * so that t1's lookup at 0 meets a cached map that does not cover 0. Each reader gets zeros
     * for the hole and the extent's bytes.
     */
    static Scenario<World> holeThenExtent() {
        return Scenario.<World>named("btrfs-hole-extent",
                "a reader of a file starting with a hole (no item) and a reader of its extent race on the extent maps")
                .autoBound(1)
                .setup(() -> {
                    BtrfsVolume vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
                    BtrfsVolume.FileBuilder b = vol.file("f");
                    b.regular(PAGE, 2L * PAGE);
                    return new World(vol, b.create(), 4, 0);
                })
                .task("t1", w -> w.read(0, 3 * PAGE))
                .task("t2", w -> w.read(PAGE, PAGE))
                .atEnd(World::check)
                .outcome(World::outcome)
                .build();
    }

    /** A volume, one file, one open file per reader, and the readers' results. */
    static final class World {
        final BtrfsVolume vol;
        final BtrfsInode inode;
        final Map<String, List<String>> results = new TreeMap<>();
        /** Completed by t1 when it has punched the hole (the scenarios that punch). */
        final Completion punched = new Completion("punched");
        private final Map<String, File> files = new TreeMap<>();

        World(BtrfsVolume vol, BtrfsInode inode, int raPages) {
            this(vol, inode, raPages, raPages);
        }

        /** t1's file reads ahead up to {@code ra1} pages, t2's up to {@code ra2}. */
        World(BtrfsVolume vol, BtrfsInode inode, int ra1, int ra2) {
            this.vol = vol;
            this.inode = inode;
            files.put("t1", vol.open(inode, "f.t1", ra1));
            files.put("t2", vol.open(inode, "f.t2", ra2));
        }

        /** A reader's {@code read(2)} of {@code len} bytes at {@code pos} on its own open file; checks the bytes. */
        long read(long pos, int len) {
            return BtrfsReads.readAndCheck(files.get(Sched.current().name()), inode, pos, len, results);
        }

        /** A read that must return all {@code len} bytes (a short or failed read is {@code data-corruption}). */
        void readAll(long pos, int len) {
            long ret = read(pos, len);
            if (ret != len) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, Sched.current().name() + ": read(" + pos + ", " + len + ") = "
                        + Errno.name(ret) + ", the file has every byte");
            }
        }

        /** {@code fallocate(FALLOC_FL_PUNCH_HOLE)} of {@code [pos, pos + len)}. */
        void punch(long pos, long len) {
            BtrfsPunchHole.btrfsPunchHole(inode, pos, len);
        }

        void check() {
            vol.checkAtEnd();
        }

        String outcome() {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, List<String>> e : results.entrySet()) {
                sb.append(e.getKey()).append('=').append(Texts.join(",", e.getValue())).append(' ');
            }
            return sb.append("pages/bio ").append(vol.fsInfo.stats.pagesPerBio()).toString();
        }
    }

    /** A SINGLE volume with one plain file of {@code pages} pages. */
    static World plain(int pages, int raPages) {
        BtrfsVolume vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
        BtrfsVolume.FileBuilder b = vol.file("f");
        b.regular(0, (long) pages * PAGE);
        return new World(vol, b.create(), raPages);
    }

    /**
     * {@code btrfs-pagepool-nomem}: seed 000 v2 ({@code BTRFS_READPAGES=1}) whose page pool cannot
     * be allocated ({@code BTRFS_PAGEPOOL_NOMEM}): every {@code extent_readpages()} call falls back
     * to the vanilla loop, page by page, while two readers race on {@code add_to_page_cache_lru()}
     * for a 1-page file. The fallback must take and drop the page references exactly as the
     * vanilla loop does.
     */
    static Scenario<World> pagepoolNomem() {
        return Scenario.<World>named("btrfs-pagepool-nomem",
                "seed 000 v2's page pool allocation fails: the vanilla fallback, two racing readers of a 1-page file")
                .set(BtrfsOptions.BTRFS_READPAGES, BtrfsOptions.READPAGES_PAGEPOOL_V2)
                .set(BtrfsOptions.BTRFS_PAGEPOOL_NOMEM, 1)
                .setup(() -> plain(1, 1))
                .task("t1", w -> w.readAll(0, PAGE))
                .task("t2", w -> w.readAll(0, PAGE))
                .atEnd(World::check)
                .outcome(World::outcome)
                .build();
    }

    /**
     * {@code btrfs-bio-alloc-fail}: a 3-page file whose page 0 lies on disk after page 1 (so a
     * read-ahead batch needs a second bio at page 1) and whose page 2 is a hole, with the second
     * {@code btrfs_bio_alloc()} of the mount failing ({@code BTRFS_BIO_ALLOC_FAIL=2}, the pre-v4.13
     * {@code -ENOMEM} path of {@code submit_extent_page()}). t1 reads the file with read-ahead: page
     * 0's bio is submitted, page 1, in the middle of the batch, meets the failure and is ended with
     * {@code PG_error} and unlocked by {@code btrfs_do_readpage()} ({@code nr == 0}), the batch goes
     * on with page 2 (zero-filled, no bio), and the read path's {@code ->readpage()} retry reads
     * page 1. With {@code racing} ({@code btrfs-bio-alloc-fail-2-readers}, large) page 2 is data
     * too (pages 1-2 contiguous, page 0 after them) and t2 reads page 1 at the same time: the
     * failure meets whichever page needs the second bio. Every reader gets every byte; exactly one
     * allocation failed (else {@code bug-on}: the injection missed); nothing leaked, no page left
     * locked.
     */
    static Scenario<World> bioAllocFail(String name, boolean racing) {
        Scenario.Builder<World> b = Scenario.<World>named(name, "the 2nd btrfs_bio_alloc() fails mid-batch (-ENOMEM): "
                + "the page errored, unlocked, re-read" + (racing ? "; a second reader races for that page" : ""))
                .set(BtrfsOptions.BTRFS_BIO_ALLOC_FAIL, 2)
                .setup(() -> {
                    BtrfsVolume vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
                    BtrfsVolume.FileBuilder fb = vol.file("f");
                    if (racing) {
                        fb.regular(PAGE, 2L * PAGE); /* allocated first: pages 1-2 at the lower disk address */
                        fb.regular(0, PAGE);
                    } else {
                        fb.regular(PAGE, PAGE); /* allocated first: page 1 at the lower disk address */
                        fb.regular(0, PAGE);
                        fb.size(3L * PAGE); /* page 2: a hole (NO_HOLES: no item), read without a bio */
                    }
                    return new World(vol, fb.create(), 3);
                })
                .task("t1", w -> w.readAll(0, 3 * PAGE));
        if (racing) {
            b.task("t2", w -> w.readAll(PAGE, PAGE));
        }
        return b.atEnd(w -> {
            w.check();
            if (w.vol.fsInfo.stats.allocFailures != 1) {
                Kernel.fail(ViolationKind.BUG_ON, "expected exactly one failed btrfs_bio_alloc(), saw "
                        + w.vol.fsInfo.stats.allocFailures + " (" + w.vol.fsInfo.stats + ")");
            }
        }).outcome(World::outcome).build();
    }

    /**
     * A file of a compressed extent C of {@code comp} pages, {@code plain} plain pages, and a reflink
     * of the last {@code shared} pages of C (a shared compressed extent): {@code [C][plain][C']}.
     * Read by one task, the plain range keeps the two ranges of C in separate bios in every form.
     * Read by two, it need not in seed 000's loops ({@code BTRFS_READPAGES} 0 to 2): when the other
     * reader wins the plain pages, C' follows C in the same compressed bio (the same start sector,
     * the same flags), which is decompressed for C's extent map only, and C' reads zeros. That is
     * the corruption 005efedf2c7d ("Btrfs: fix read corruption of compressed and shared extents",
     * v4.3) fixed with {@code prev_em_start}/{@code force_bio_submit}, which v5.10 has.
     */
    static World compressedSharedFile(int comp, int plain, int shared, int ra1, int ra2) {
        BtrfsVolume vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
        BtrfsVolume.FileBuilder b = vol.file("f");
        FileExtentItem c = b.compressed(0, (long) comp * PAGE);
        b.regular((long) comp * PAGE, (long) plain * PAGE);
        b.reflink((long) (comp + plain) * PAGE, c, (long) (comp - shared) * PAGE, (long) shared * PAGE);
        return new World(vol, b.create(), ra1, ra2);
    }

    /**
     * {@code btrfs-compressed-shared}: {@code [C0 C1][plain][C1']}, a 2-page compressed extent, a
     * plain page and a reflink of C's second page; t1 reads pages 1 to 3 with read-ahead while t2
     * reads the plain page (read-ahead of 1): C1 and C1' are read through {@code btrfs_submit_compressed_read()} (the disk
     * bytes read once per bio, decompressed at {@code page_offset - em->orig_start}). Passes with
     * v5.10's {@code extent_readahead()}; fails with {@code data-corruption} under seed 000's loops
     * when t2 wins the plain page (see {@link #compressedSharedFile}).
     */
    static Scenario<World> compressedShared() {
        return Scenario.<World>named("btrfs-compressed-shared",
                "a compressed extent, a plain page, a reflink of the extent: t1 reads pages 1-3, t2 the plain page 2")
                .setup(() -> compressedSharedFile(2, 1, 1, 3, 1))
                .task("t1", w -> w.readAll(PAGE, 3 * PAGE))
                .task("t2", w -> w.readAll(2L * PAGE, PAGE))
                .atEnd(World::check)
                .outcome(World::outcome)
                .build();
    }

    /**
     * {@code btrfs-compressed-shared-batches}: {@code [C][plain][C']} with an 8-page C and 4 plain
     * pages, 20 pages read with read-ahead of 20 by two readers: one read-ahead call spans two
     * 16-page batches ({@code readahead_page_batch()}, or the page pool's flush), and C' crosses
     * the batch boundary (pages 12-15 and 16-19), where the bio chain must go on with the same
     * compressed bio (808f80b46790 moved {@code prev_em_start} out of the batch for this).
     */
    static Scenario<World> compressedSharedBatches() {
        return Scenario.<World>named("btrfs-compressed-shared-batches",
                "two readers of a compressed extent and its reflink in 20 pages: read-ahead calls spanning two 16-page batches")
                .setup(() -> compressedSharedFile(8, 4, 8, 20, 20))
                .task("t1", w -> w.readAll(0, 20 * PAGE))
                .task("t2", w -> w.readAll(0, 20 * PAGE))
                .atEnd(World::check)
                .outcome(World::outcome)
                .build();
    }

    /**
     * {@code btrfs-punch-compressed-shared}: {@code [C0 C1][plain][C1']} (see
     * {@link #compressedSharedFile}), read before and dropped from the page cache (its extent maps
     * still cached): t1 punches a hole over the plain page ({@code btrfs_punch_hole()}: the page
     * cache range truncated, the items replaced, the maps there dropped and a hole map inserted),
     * then reads pages 1 to 3 with read-ahead; with {@code racing}
     * ({@code btrfs-punch-compressed-shared-2-readers}, large) t2 reads the hole's page at the same
     * time. The hole's map now sits between C and C1': with v5.10's {@code prev_em_start} (the
     * hole's {@code em->start} differs from C1''s) C1' gets a compressed bio of its own. Seed 000's
     * loops have no {@code prev_em_start} and fail with {@code data-corruption} (C1' joins C's bio),
     * and so does v5.10 with 8e928218780e undone ({@code btrfs-prev-em-orig-start}: the hole's
     * {@code orig_start} equals C1''s). The punch and the reads do not overlap (the model has no
     * extent-state locking, {@link BtrfsPunchHole}); starting from a dropped page cache keeps the
     * punch's truncation away from read completions still in {@code unlock_page()}'s wake-up (see
     * the README's fs-btrfs notes).
     */
    static Scenario<World> punchCompressedShared(String name, boolean racing) {
        Scenario.Builder<World> b = Scenario.<World>named(name,
                "a hole punched between a compressed extent and a reflink of it, then " + (racing
                        ? "two readers (pages 1-3, the hole's page 2)" : "a read of pages 1-3"))
                .setup(() -> {
                    World w = compressedSharedFile(2, 1, 1, 3, 1);
                    w.vol.cacheExtentMaps(w.inode);
                    return w;
                })
                .task("t1", w -> {
                    w.punch(2L * PAGE, PAGE);
                    Completion.complete(w.punched);
                    w.readAll(PAGE, 3 * PAGE);
                });
        if (racing) {
            b.task("t2", w -> {
                Completion.waitForCompletionIo(w.punched);
                w.readAll(2L * PAGE, PAGE);
            });
        }
        return b.atEnd(World::check).outcome(World::outcome).build();
    }
}
