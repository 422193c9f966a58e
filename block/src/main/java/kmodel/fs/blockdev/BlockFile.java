package kmodel.fs.blockdev;

import java.util.TreeSet;
import kmodel.block.BlockDevice;
import kmodel.kernel.Kernel;
import kmodel.kernel.locking.RwSemaphore;
import kmodel.mm.AddressSpace;
import kmodel.mm.AddressSpaceOperations;
import kmodel.mm.File;
import kmodel.mm.FilemapWrite;
import kmodel.mm.Inode;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;
import kmodel.mm.ReadaheadControl;
import kmodel.mm.Truncate;
import kmodel.mm.WritebackControl;

/**
 * A regular file on a {@link Bdev}, laid out block for block (file block n is device block n),
 * the way a minimal block file system (ext2 without indirect blocks, say) keeps its only file: the
 * world of the write-path scenarios. Its {@code address_space_operations} are the buffer-head
 * ones of fs/buffer.c and fs/mpage.c over {@link #getBlock}: {@code ->readpage} =
 * {@code block_read_full_page()}, {@code ->readahead} = {@code mpage_readahead()},
 * {@code ->write_begin} = {@code block_write_begin()}, {@code ->write_end} =
 * {@code generic_write_end()}, {@code ->writepage} = {@code block_write_full_page()}. Not a kernel
 * structure: a test fixture of kernel-shaped parts.
 *
 * <p>Blocks are allocated or not: an unallocated block is a hole that reads as zeros; a write
 * allocates it ({@code get_block(create = 1)}, "new": the bytes the write does not cover are
 * zeroed, never read from the device), truncation frees the blocks past the new size after it
 * has emptied the page cache there (as {@code ext2_setsize()} does). Lock rule: {@link #allocated}
 * changes under the page lock of the block's page (allocation, from {@code write_begin} or
 * writeback) or under {@code i_rwsem} after the pages are gone (truncation).
 */
public final class BlockFile {
    /** The device. */
    public final Bdev bdev;
    /** The file's inode ({@code i_blkbits = PAGE_SHIFT}). */
    public final Inode inode;
    /** The file blocks that are allocated (device block = file block). */
    final TreeSet<Long> allocated = new TreeSet<>();
    private final String name;
    private int opened;

    private BlockFile(Bdev bdev, String name, long size) {
        this.bdev = bdev;
        this.name = name;
        this.inode = new Inode(name, size, new Aops(this), Page.PAGE_SHIFT);
        this.inode.iMapping.canWriteback = true;
        this.inode.iMapping.allocator = bdev.mapping().allocator;
        for (long b = 0; b < (size + Page.PAGE_SIZE - 1) >> Page.PAGE_SHIFT; b++) {
            allocated.add(b);
        }
    }

    /**
     * A file of {@code size} bytes on {@code bdev}, every block inside it allocated and holding
     * the device's bytes. Build it in the program's boot.
     */
    public static BlockFile create(Bdev bdev, String name, long size) {
        Kernel.BUG_ON(size > bdev.inode.iSize.plain(), "file larger than its device");
        return new BlockFile(bdev, name, size);
    }

    /** A new open file ({@code name.f0}, ...), read-ahead as the device's files. */
    public File open() {
        return new File(name + ".f" + opened++, inode, bdev.raPages);
    }

    /** The page cache ({@code i_mapping}). */
    public AddressSpace mapping() {
        return inode.iMapping;
    }

    /** Whether file block {@code block} is allocated now (checks, no scheduling point). */
    public boolean peekAllocated(long block) {
        return allocated.contains(block);
    }

    /**
     * The file system's {@code get_block}: an allocated block maps to the device block of the
     * same number; an unallocated one is a hole, unless {@code create}, which allocates it and
     * marks the result new ({@code BH_New}).
     */
    int getBlock(Inode in, long iblock, BufferHead bh, int create) {
        if (!allocated.contains(iblock)) {
            if (create == 0) {
                return 0; /* a hole */
            }
            allocated.add(iblock);
            bh.bNew = true;
            Kernel.event("%s: allocate block %s", this, iblock);
        }
        bh.bBdev = bdev.bdev;
        bh.bBlocknr = iblock;
        bh.mapped = true;
        return 0;
    }

    /** {@code write(2)}: {@code generic_file_write_iter()} of {@code data} at {@code pos}. */
    public long write(File file, long pos, byte[] data) {
        return FilemapWrite.genericFileWriteIter(new Kiocb(file, pos, 0), new IovIter(data));
    }

    /**
     * {@code truncate(2)}: fs/open.c {@code do_truncate()} takes {@code i_rwsem} and
     * {@code notify_change()} reaches the file system's setattr, here fs/ext2/inode.c:
     * {@code ext2_setsize()} reduced: {@code truncate_setsize()} (new {@code i_size}, then the
     * page cache emptied past it), then the blocks past it freed
     * ({@code __ext2_truncate_blocks()}).
     */
    public void truncate(long newsize) {
        RwSemaphore.downWrite(inode.iRwsem);
        Truncate.truncateSetsize(inode, newsize);
        long first = (newsize + Page.PAGE_SIZE - 1) >> Page.PAGE_SHIFT;
        allocated.tailSet(first, true).clear();
        RwSemaphore.upWrite(inode.iRwsem);
    }

    @Override
    public String toString() {
        return name;
    }

    /** The file's {@code address_space_operations}. */
    static final class Aops implements AddressSpaceOperations {
        private final BlockFile file;
        private final GetBlock getBlock;

        Aops(BlockFile file) {
            this.file = file;
            this.getBlock = new GetBlock() {
                @Override
                public int getBlock(Inode inode, long iblock, BufferHead bh, int create) {
                    return Aops.this.file.getBlock(inode, iblock, bh, create);
                }
            };
        }

        /** {@code .readpage}: {@code block_read_full_page(page, get_block)}. */
        @Override
        public int readpage(File f, Page page) {
            return Buffer.blockReadFullPage(page, getBlock);
        }

        @Override
        public boolean hasReadahead() {
            return true;
        }

        /** {@code .readahead}: {@code mpage_readahead(rac, get_block)}. */
        @Override
        public void readahead(ReadaheadControl rac) {
            Mpage.mpageReadahead(rac, getBlock);
        }

        @Override
        public boolean hasWritepage() {
            return true;
        }

        /** {@code .writepage}: {@code block_write_full_page(page, get_block, wbc)}. */
        @Override
        public int writepage(Page page, WritebackControl wbc) {
            return BufferWrite.blockWriteFullPage(page, getBlock, wbc);
        }

        @Override
        public boolean hasWriteBegin() {
            return true;
        }

        /** {@code .write_begin}: {@code block_write_begin(mapping, pos, len, flags, pagep, get_block)}. */
        @Override
        public int writeBegin(File f, AddressSpace mapping, long pos, int len, int flags, Page[] pagep) {
            return BufferWrite.blockWriteBegin(mapping, pos, len, flags, pagep, getBlock);
        }

        /** {@code .write_end}: {@code generic_write_end()}. */
        @Override
        public int writeEnd(File f, AddressSpace mapping, long pos, int len, int copied, Page page) {
            return BufferWrite.genericWriteEnd(f, mapping, pos, len, copied, page);
        }

        /** The device. */
        BlockDevice bdev() {
            return file.bdev.bdev;
        }
    }
}
