package kmodel.fs.btrfs;

import kmodel.block.BlockDevice;
import kmodel.block.Disk;

/**
 * fs/btrfs/volumes.h: {@code struct btrfs_device} (v5.10), the parts the I/O path needs: its
 * {@code devid} and {@code bdev}, here over a simulated {@link Disk} of the block module.
 */
public final class BtrfsDevice {
    /** {@code devid}. */
    public final long devid;
    /** The simulated disk behind {@link #bdev}. */
    public final Disk disk;
    /** {@code bdev}. */
    public final BlockDevice bdev;

    public BtrfsDevice(long devid, Disk disk) {
        this.devid = devid;
        this.disk = disk;
        this.bdev = new BlockDevice(disk.gendisk);
    }

    @Override
    public String toString() {
        return "devid " + devid + " (" + disk + ")";
    }
}
