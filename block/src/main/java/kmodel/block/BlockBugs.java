package kmodel.block;

/**
 * Catalog bugs of the block module, switched in with {@code Kconfig.withBug(id)} (CLI:
 * {@code --bug ID}) and read with {@code Kernel.bug(id)}.
 */
public final class BlockBugs {
    /**
     * A mutation of {@code bio_split()} (block/bio.c): the remainder is moved past the split by
     * hand, {@code bi_sector} and {@code bi_size} only, instead of with {@code bio_advance()}; its
     * position in the shared bvec table ({@code bi_idx}, {@code bi_bvec_done}) stays where the
     * split starts. The remainder then transfers the sectors after the split to or from the
     * split's memory. {@code __blk_queue_split()} splits a bio this way when it exceeds the
     * queue's {@code max_sectors} or {@code max_segments}. Manifests as {@code data-corruption}.
     */
    public static final String BIO_SPLIT_ADVANCES_SECTOR_ONLY = "bio-split-advances-sector-only";

    private BlockBugs() {
    }

    /** Every bug id of this module. */
    public static String[] all() {
        return new String[] {BIO_SPLIT_ADVANCES_SECTOR_ONLY};
    }
}
