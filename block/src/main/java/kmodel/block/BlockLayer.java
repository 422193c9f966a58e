package kmodel.block;

import java.util.concurrent.atomic.AtomicInteger;
import kmodel.kernel.FaultInject.FaultAttr;

/**
 * The block layer's global state for one execution: {@code fs_bio_set} (block/bio.c),
 * {@code fail_make_request} (block/blk-core.c) and the
 * sequence that names bios "bio0", "bio1", ... in creation order. The kernel keeps these in
 * static storage; the model keeps no static mutable state (each execution builds its own world),
 * so a scenario creates one {@code BlockLayer} in its setup and hands it to the disks and bio sets
 * it makes ({@code kmodel.fs.blockdev.Bdev.create} does this for you).
 */
public final class BlockLayer {
    /** block/bio.c: {@code fs_bio_set}, for {@code bio_alloc()}. */
    public final BioSet fsBioSet;
    /**
     * block/blk-core.c: {@code fail_make_request} (v5.10, {@code static DECLARE_FAULT_ATTR()}),
     * with the budget of {@code FAIL_MAKE_REQUEST} (off, 0, by default); asked by
     * {@code should_fail_request()}.
     */
    public final FaultAttr failMakeRequest = new FaultAttr("fail_make_request", BlockOptions.FAIL_MAKE_REQUEST);
    private final AtomicInteger nextBio = new AtomicInteger();
    private final AtomicInteger nextDisk = new AtomicInteger();

    public BlockLayer() {
        this.fsBioSet = new BioSet(this, "fs_bio_set", Bio::new);
    }

    /** The next bio name in creation order: "bio0", "bio1", ... */
    String nextBioName() {
        return "bio" + nextBio.getAndIncrement();
    }

    /** The next default disk name: "sda", "sdb", ... */
    public String nextDiskName() {
        int n = nextDisk.getAndIncrement();
        return "sd" + (char) ('a' + (n % 26));
    }
}
