package kmodel.mm;

import kmodel.kernel.atomic.Shared;

/** include/linux/fs.h: {@code struct inode}, the parts the read path needs. */
public final class Inode {
    /** {@code i_size}: read with {@code i_size_read()} (a scheduling point). */
    public final Shared<Long> iSize;
    /** {@code i_mapping}: the page cache of this inode. */
    public final AddressSpace iMapping;
    /** {@code i_blkbits}. */
    public final int iBlkbits;
    private final String name;

    public Inode(String name, long size, AddressSpaceOperations aops, int blkbits) {
        this.name = name;
        this.iSize = new Shared<>(name + ".i_size", size);
        this.iMapping = new AddressSpace(this, aops);
        this.iBlkbits = blkbits;
    }

    /** include/linux/fs.h: {@code i_size_read()}. */
    public long iSizeRead() {
        return iSize.readOnce();
    }

    @Override
    public String toString() {
        return name;
    }
}
