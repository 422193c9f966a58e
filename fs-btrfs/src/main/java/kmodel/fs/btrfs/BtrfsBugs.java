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

    /**
     * Undoes seed 001's fix-up of {@code bi_vcnt} users in {@code dio_read_error()} (fs/btrfs/inode.c;
     * v4.12 text, changed in the series by "Btrfs: change how we iterate bios in endio",
     * 17347cec15f9 [the patch of this hunk unverified]): the decision whether the repair read of a
     * failed direct-read sector gets {@code REQ_FAILFAST_DEV} reads {@code failed_bio->bi_vcnt} and
     * {@code failed_bio->bi_io_vec[0]} instead of {@code bio_segments()} and
     * {@code bio_get_first_bvec()}. Harmless on v4.12's bios, which own their tables; on a v4.13
     * fast clone {@code bi_vcnt} is 0 and {@code bi_io_vec[0]} is the first bvec of the whole
     * direct I/O, not of the piece. The model reads {@code bi_io_vec[0]} with
     * {@code bio_first_bvec_all()}, whose {@code WARN_ON_ONCE(bio_flagged(bio, BIO_CLONED))}
     * (v5.10) makes the misuse a failed check: manifests as {@code bug-on}, with
     * {@code BTRFS_DIO_CLONE=1} only.
     */
    public static final String CLONE_FIRST_BVEC = "btrfs-clone-first-bvec";

    /**
     * Undoes "Btrfs: record error if one block has failed to retry" (seed 001, patch 5, v4.13): the
     * direct-read repair loop ({@code __btrfs_correct_data_nocsum()}, and here
     * {@code __btrfs_subio_endio_read()} alike) returns at the first sector it cannot repair
     * instead of recording the error and going on, so later sectors of the piece are never
     * retried. Manifests as {@code wrong-result}: a sector with a good copy on the other mirror
     * reaches the reader as read from the failed one.
     */
    public static final String DIO_REPAIR_EARLY_RETURN = "btrfs-dio-repair-early-return";

    /**
     * A mutation of the ordering {@code btrfs_submit_direct_hook()} comments on ("inc the count
     * before we submit the bio so we know the end IO handler won't happen before we inc the count.
     * Otherwise, the dip might get freed before we're done setting it up"): each split piece but
     * the last is counted in {@code dip->pending_bios} only after it was submitted. If it completes
     * first, the count reaches zero while pieces are still to come: {@code orig_bio} and the dio
     * complete early, and fs/direct-io.c frees the dio bio and unpins the user pages while a later
     * piece still reads them (with fast clones, the dio bio's bvec table). Manifests as
     * {@code use-after-free} (a freed bio or page touched); with {@code BTRFS_DIO_CLONE=0} on the
     * read scenario, as {@code data-corruption} (the call returned before the second piece's data
     * arrived).
     */
    public static final String DIO_PENDING_AFTER_SUBMIT = "btrfs-dio-pending-after-submit";

    private BtrfsBugs() {
    }

    /** Every bug id of this module. */
    public static String[] all() {
        return new String[] {PAGEPOOL_DOUBLE_RELEASE, PAGEPOOL_LEAK, ENDIO_SKIP_OFFSET, READPAGE_ERROR_KEEPS_LOCK,
            PREV_EM_ORIG_START, CLONE_FIRST_BVEC, DIO_REPAIR_EARLY_RETURN, DIO_PENDING_AFTER_SUBMIT};
    }
}
