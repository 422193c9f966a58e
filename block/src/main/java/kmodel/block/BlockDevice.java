package kmodel.block;

import kmodel.mm.Inode;

/**
 * include/linux/blk_types.h: {@code struct block_device} (v5.10), the parts the model needs: the
 * disk and the block device inode whose page cache serves reads of the device file. Partitions
 * are not modelled ({@code bd_partno == 0}).
 */
public final class BlockDevice {
    /** {@code bd_disk}. */
    public final GenDisk bdDisk;
    /** {@code bd_inode}: set by the code that creates the device's inode. */
    public Inode bdInode;

    public BlockDevice(GenDisk disk) {
        this.bdDisk = disk;
    }

    @Override
    public String toString() {
        return bdDisk.diskName;
    }
}
