package kmodel.fs.btrfs;

/**
 * Catalog bugs of the btrfs module, switched in with {@code Kconfig.withBug(id)} (CLI:
 * {@code --bug ID}) and read with {@code Kernel.bug(id)}.
 */
public final class BtrfsBugs {
    /**
     * A mutation of seed 000's pagepool loop ({@code BTRFS_READPAGES=1} or {@code 2}): on the
     * {@code add_to_page_cache_lru()} failure path the page is released, and the loop's common tail
     * (the vanilla loop's unconditional {@code page_cache_release()}, kept in this mutation) releases
     * it again. Reached only when another reader won the page. Manifests as {@code double-release}.
     */
    public static final String PAGEPOOL_DOUBLE_RELEASE = "btrfs-pagepool-double-release";

    /**
     * A mutation of seed 000's pagepool flush loop ({@code BTRFS_READPAGES=1} or {@code 2}): the
     * pooled page is read but its read-ahead reference is not released afterwards
     * ({@code page_cache_release(pagepool[i])} forgotten). Manifests as {@code ref-leak}.
     */
    public static final String PAGEPOOL_LEAK = "btrfs-pagepool-leak";

    /**
     * Undoes 38c1c2e44bac ("Btrfs: fix crash on endio of reading corrupted block", Liu Bo, v3.17):
     * when {@code end_bio_extent_readpage()} hands a bad block to read repair it goes on to the next
     * bvec without {@code offset += len}, so the following blocks of the bio are checked against the
     * wrong checksums ("this leads to checksum errors while reading left blocks queued up in the
     * same bio"), and their repairs fail although a good copy exists. The 2014 kernel then hit a
     * {@code BUG_ON}; the model's RAID1 scenario reports the failed repair as {@code bug-on}.
     */
    public static final String ENDIO_SKIP_OFFSET = "btrfs-endio-skip-offset";

    /**
     * A mutation of {@code btrfs_do_readpage()}'s error path (v5.10; {@code __do_readpage()} before):
     * when {@code submit_extent_page()} fails (the injectable {@code btrfs_bio_alloc()} failure,
     * {@code BTRFS_BIO_ALLOC_FAIL}), the page is marked {@code PG_error} and the function returns
     * at once instead of going on to its {@code if (!nr) unlock_page(page)} tail, so the page no
     * block of which went to a bio stays locked. Found by {@code btrfs-bio-alloc-fail}.
     */
    public static final String READPAGE_ERROR_KEEPS_LOCK = "btrfs-readpage-error-keeps-lock";

    /**
     * Undoes 8e928218780e ("Btrfs: fix corruption reading shared and compressed extents after hole
     * punching", v5.1): {@code btrfs_do_readpage()} compares and records {@code em->orig_start}
     * instead of {@code em->start} in {@code prev_em_start}. After a hole is punched right before a
     * range that shares a compressed extent at a non-zero offset, the hole's map and that range's
     * map have the same {@code orig_start}, so {@code force_bio_submit} is not set and the range
     * joins the compressed bio of the range before the hole, decompressed for that one's map:
     * {@code data-corruption}. Found by {@code btrfs-punch-compressed-shared}.
     */
    public static final String PREV_EM_ORIG_START = "btrfs-prev-em-orig-start";

    private BtrfsBugs() {
    }

    /** Every bug id of this module. */
    public static String[] all() {
        return new String[] {PAGEPOOL_DOUBLE_RELEASE, PAGEPOOL_LEAK, ENDIO_SKIP_OFFSET, READPAGE_ERROR_KEEPS_LOCK,
            PREV_EM_ORIG_START};
    }
}
