package kmodel.block;

/**
 * include/linux/genhd.h: {@code struct gendisk} (v5.10): name, queue, capacity, and the driver's
 * {@code private_data}; plus the model's I/O statistics ({@link DiskStats}).
 */
public final class GenDisk {
    /** {@code disk_name}. */
    public final String diskName;
    /** {@code queue}. */
    public final RequestQueue queue;
    /** {@code part0.nr_sects}: the capacity in 512-byte sectors. */
    private final long nrSects;
    /** {@code private_data}: the driver's device. */
    public Object privateData;
    /** Counters for performance work (not part of the kernel structure). */
    public final DiskStats stats = new DiskStats();
    /**
     * {@code part0.make_it_fail} (/sys/block/NAME/make-it-fail, {@code CONFIG_FAIL_MAKE_REQUEST}):
     * whether {@code fail_make_request} may fail this disk's bios. The kernel's default is 0; the
     * model's is 1, so {@code FAIL_MAKE_REQUEST=N} alone applies to every disk (a world may clear it).
     */
    public boolean makeItFail = true;
    /** The block layer this disk belongs to. */
    public final BlockLayer layer;

    public GenDisk(BlockLayer layer, String diskName, RequestQueue queue, long nrSects) {
        this.layer = layer;
        this.diskName = diskName;
        this.queue = queue;
        this.nrSects = nrSects;
    }

    /** include/linux/genhd.h: {@code get_capacity()}. */
    public long capacity() {
        return nrSects;
    }

    @Override
    public String toString() {
        return diskName;
    }
}
