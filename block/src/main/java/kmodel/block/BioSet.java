package kmodel.block;

/**
 * include/linux/bio.h: {@code struct bio_set}: where bios are allocated from. The kernel's
 * {@code front_pad} places a containing structure in front of the bio (btrfs's
 * {@code struct btrfs_io_bio} ends with its bio, reached by {@code container_of}); the Java
 * stand-in is a {@link Factory} that creates a {@link Bio} subclass.
 *
 * <p>Allocation never fails: the kernel's bioset mempool guarantees forward progress for
 * allocations that may sleep, and the model does not model GFP flags or memory pressure.
 */
public final class BioSet {
    /** Creates the bio (or the structure that embeds it) of a bio_set: the front pad. */
    public interface Factory {
        /** A new bio named {@code name}. */
        Bio newBio(String name);
    }

    final BlockLayer layer;
    final Factory factory;
    private final String name;

    /**
     * block/bio.c: {@code bioset_init(bs, pool_size, front_pad, flags)}: a bio set of
     * {@code layer} whose bios {@code factory} makes.
     */
    public BioSet(BlockLayer layer, String name, Factory factory) {
        this.layer = layer;
        this.name = name;
        this.factory = factory;
    }

    /** The block layer this set belongs to. */
    public BlockLayer layer() {
        return layer;
    }

    @Override
    public String toString() {
        return name;
    }
}
