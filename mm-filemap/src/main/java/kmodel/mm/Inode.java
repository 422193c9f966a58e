package kmodel.mm;

import kmodel.kernel.atomic.Shared;
import kmodel.kernel.locking.RwSemaphore;

/** include/linux/fs.h: {@code struct inode}, the parts the read path needs. */
public final class Inode {
    /** {@code i_size}: read with {@code i_size_read()} (a scheduling point). */
    public final Shared<Long> iSize;
    /** {@code i_mapping}: the page cache of this inode. */
    public final AddressSpace iMapping;
    /**
     * {@code i_rwsem} ({@code inode_lock()}): held for writing by regular-file writers
     * ({@code generic_file_write_iter()}) and by truncation ({@code do_truncate()} ->
     * {@code notify_change()}), so a write and a truncation of one file do not overlap.
     */
    public final RwSemaphore iRwsem;
    /** {@code i_blkbits}. */
    public final int iBlkbits;
    private final String name;

    public Inode(String name, long size, AddressSpaceOperations aops, int blkbits) {
        this.name = name;
        this.iSize = new Shared<>(name + ".i_size", size);
        this.iMapping = new AddressSpace(this, aops);
        this.iBlkbits = blkbits;
        this.iRwsem = new RwSemaphore(name + ".i_rwsem");
    }

    /** include/linux/fs.h: {@code i_size_read()}. */
    public long iSizeRead() {
        return iSize.readOnce();
    }

    /**
     * include/linux/fs.h: {@code i_size_write()}: the caller holds {@code i_rwsem} or, when a
     * write extends the file, the page lock of the page at the new end ({@code generic_write_end()}).
     */
    public void iSizeWrite(long size) {
        iSize.writeOnce(size);
    }

    @Override
    public String toString() {
        return name;
    }
}
