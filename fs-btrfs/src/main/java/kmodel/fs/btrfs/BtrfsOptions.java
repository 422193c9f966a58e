package kmodel.fs.btrfs;

import kmodel.kernel.KconfigOption;

/** Kconfig options read by the btrfs module ({@code ./kmodel options} lists them). */
public final class BtrfsOptions {
    private BtrfsOptions() {
    }

    /** {@link #BTRFS_READPAGES}: v3.5 {@code extent_readpages()}, each page read as soon as it is added. */
    public static final int READPAGES_VANILLA = 0;
    /**
     * {@link #BTRFS_READPAGES}: seed 000 v2 (reconstructed from its change log, "if we fail to make a
     * allocation, just fall back to the old way to read page"): the pool is allocated, and when that
     * fails the vanilla loop runs.
     */
    public static final int READPAGES_PAGEPOOL_V2 = 1;
    /** {@link #BTRFS_READPAGES}: seed 000 v5 as merged (67c9684f48ea, v3.6): {@code struct page *pagepool[16]} on the stack. */
    public static final int READPAGES_PAGEPOOL = 2;
    /** {@link #BTRFS_READPAGES}: v5.10 {@code extent_readahead()} -> {@code contiguous_readpages()}. */
    public static final int READAHEAD_V510 = 3;

    /**
     * Which form of btrfs' read-ahead entry point the address space operations offer: 0 the vanilla
     * {@code ->readpages} of seed 000 (v3.5), 1 the pagepool of seed 000's v2 with its fallback, 2
     * the merged 16-page pagepool (v3.6), 3 v5.10's {@code ->readahead} (default).
     */
    public static final KconfigOption BTRFS_READPAGES = KconfigOption.integer("BTRFS_READPAGES", READAHEAD_V510, 0, 3,
            "btrfs read-ahead: 0 vanilla readpages, 1 pagepool v2 (kmalloc + fallback), 2 pagepool (seed 000, v3.6), 3 v5.10 extent_readahead");

    /**
     * Makes the kmalloc of seed 000 v2's page pool fail ({@code BTRFS_READPAGES=1} only): every
     * call then falls back to the vanilla loop.
     */
    public static final KconfigOption BTRFS_PAGEPOOL_NOMEM = KconfigOption.bool("BTRFS_PAGEPOOL_NOMEM", false,
            "seed 000 v2: the page pool's allocation fails (fall back to reading page by page)");

    /**
     * Makes the Nth {@code btrfs_bio_alloc()} of the file system fail (0: never), counted in call
     * order per mount. v5.10's allocation cannot fail (a bioset mempool); v3.6 to v4.12 checked for
     * NULL and {@code submit_extent_page()} returned {@code -ENOMEM}, the error path modelled here.
     */
    public static final KconfigOption BTRFS_BIO_ALLOC_FAIL = KconfigOption.integer("BTRFS_BIO_ALLOC_FAIL", 0, 0, 1000,
            "fail the Nth btrfs_bio_alloc() of a mount with -ENOMEM (0: never; pre-v4.13 error path)");

    /**
     * {@link #BTRFS_DIO_CLONE}: v4.12, before seed 001: {@code btrfs_bio_clone()} is
     * {@code bio_clone_bioset()} (a bio with its own copy of the bvec table), and
     * {@code btrfs_submit_direct_hook()} builds each split piece page by page with
     * {@code bio_add_page()}.
     */
    public static final int DIO_CLONE_BIOSET = 0;
    /**
     * {@link #BTRFS_DIO_CLONE}: v4.13, seed 001 merged: {@code btrfs_bio_clone()} is
     * {@code bio_clone_fast()} (the table is shared), each split piece is
     * {@code btrfs_bio_clone_partial()} ({@code bio_clone_fast()} + {@code bio_trim()}), and the
     * end_io walks each piece with the {@code bvec_iter} saved in its {@code btrfs_io_bio}.
     */
    public static final int DIO_CLONE_FAST = 1;

    /**
     * How btrfs clones bios (per mirror in {@code btrfs_map_bio()}, and for direct I/O) and splits
     * a direct I/O at stripe boundaries: 0 the vanilla v4.12 form, 1 seed 001's v4.13 form
     * (default).
     */
    public static final KconfigOption BTRFS_DIO_CLONE = KconfigOption.integer("BTRFS_DIO_CLONE", DIO_CLONE_FAST, 0, 1,
            "btrfs bio cloning and DIO split: 0 v4.12 bio_clone_bioset + bio_add_page per page, 1 seed 001 (v4.13) bio_clone_fast + bio_trim");

    /** Every option of this module. */
    public static KconfigOption[] all() {
        return new KconfigOption[] {BTRFS_READPAGES, BTRFS_PAGEPOOL_NOMEM, BTRFS_BIO_ALLOC_FAIL, BTRFS_DIO_CLONE};
    }
}
