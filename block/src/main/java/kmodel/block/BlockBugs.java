package kmodel.block;

/**
 * Catalog bugs of the block module, switched in with {@code Kconfig.withBug(id)} (CLI:
 * {@code --bug ID}) and read with {@code Kernel.bug(id)}.
 */
public final class BlockBugs {
    /**
     * A mutation of {@code bio_trim()} (block/bio.c): after advancing to the window, the offset
     * into the first bvec ({@code bi_iter.bi_bvec_done}) is lost. Seed 001's partial clones
     * ({@code btrfs_bio_clone_partial()}: a fast clone trimmed to a window) start in the middle of
     * a parent bvec exactly when a DIO is split at a boundary that is not page aligned; the clone
     * then transfers the wrong bytes. Manifests as {@code data-corruption}.
     */
    public static final String BIO_TRIM_LOSES_BVEC_DONE = "bio-trim-loses-bvec-done";

    private BlockBugs() {
    }

    /** Every bug id of this module. */
    public static String[] all() {
        return new String[] {BIO_TRIM_LOSES_BVEC_DONE};
    }
}
