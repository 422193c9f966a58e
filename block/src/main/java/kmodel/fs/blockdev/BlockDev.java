package kmodel.fs.blockdev;

import kmodel.block.BlockDevice;
import kmodel.kernel.Kernel;
import kmodel.mm.AddressSpace;
import kmodel.mm.AddressSpaceOperations;
import kmodel.mm.File;
import kmodel.mm.Inode;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.mm.ReadaheadControl;
import kmodel.mm.WritebackControl;

/**
 * fs/block_dev.c (v5.10): the block device file: {@code def_blk_aops} ({@code readpage} ->
 * {@code block_read_full_page()}, {@code readahead} -> {@code mpage_readahead()},
 * {@code writepage} -> {@code block_write_full_page()}, {@code write_begin} ->
 * {@code block_write_begin()}, {@code write_end} -> {@code blkdev_write_end()}), the identity
 * {@code blkdev_get_block()}, and {@code blkdev_open()} setting {@code FMODE_NOWAIT} and (since
 * the async buffered read series, seed 002) {@code FMODE_BUF_RASYNC}.
 *
 * <p>The kernel has one global {@code def_blk_aops} and finds the device with
 * {@code I_BDEV(inode)} ({@code container_of} the bdev inode); the model gives each device its
 * own {@link DefBlkAops} holding that back-reference.
 */
public final class BlockDev {
    private BlockDev() {
    }

    /** fs/block_dev.c: {@code def_blk_aops} of one block device. */
    public static final class DefBlkAops implements AddressSpaceOperations {
        private final BlockDevice bdev;
        private final GetBlock getBlock;

        public DefBlkAops(BlockDevice bdev) {
            this.bdev = bdev;
            this.getBlock = new GetBlock() {
                @Override
                public int getBlock(Inode inode, long iblock, BufferHead bh, int create) {
                    return blkdevGetBlock(DefBlkAops.this.bdev, inode, iblock, bh, create);
                }
            };
        }

        /** {@code .readpage = blkdev_readpage}. */
        @Override
        public int readpage(File file, Page page) {
            return blkdevReadpage(getBlock, file, page);
        }

        @Override
        public boolean hasReadahead() {
            return true;
        }

        /** {@code .readahead = blkdev_readahead}. */
        @Override
        public void readahead(ReadaheadControl rac) {
            blkdevReadahead(getBlock, rac);
        }

        @Override
        public boolean hasWritepage() {
            return true;
        }

        /** {@code .writepage = blkdev_writepage}: {@code block_write_full_page(page, blkdev_get_block, wbc)}. */
        @Override
        public int writepage(Page page, WritebackControl wbc) {
            return BufferWrite.blockWriteFullPage(page, getBlock, wbc);
        }

        @Override
        public boolean hasWriteBegin() {
            return true;
        }

        /** {@code .write_begin = blkdev_write_begin}: {@code block_write_begin(..., blkdev_get_block)}. */
        @Override
        public int writeBegin(File file, AddressSpace mapping, long pos, int len, int flags, Page[] pagep) {
            return BufferWrite.blockWriteBegin(mapping, pos, len, flags, pagep, getBlock);
        }

        /** {@code .write_end = blkdev_write_end}. */
        @Override
        public int writeEnd(File file, AddressSpace mapping, long pos, int len, int copied, Page page) {
            return BufferWrite.blkdevWriteEnd(file, mapping, pos, len, copied, page);
        }

        /** The device ({@code I_BDEV(inode)}). */
        public BlockDevice bdev() {
            return bdev;
        }
    }

    /**
     * fs/block_dev.c: {@code blkdev_get_block()}: block {@code iblock} of the device file is
     * block {@code iblock} of the device, always mapped.
     */
    static int blkdevGetBlock(BlockDevice bdev, Inode inode, long iblock, BufferHead bh, int create) {
        bh.bBdev = bdev;
        bh.bBlocknr = iblock;
        bh.mapped = true;
        return 0;
    }

    /** fs/block_dev.c: {@code blkdev_readpage()}: {@code block_read_full_page(page, blkdev_get_block)}. */
    static int blkdevReadpage(GetBlock getBlock, File file, Page page) {
        return Buffer.blockReadFullPage(page, getBlock);
    }

    /** fs/block_dev.c: {@code blkdev_readahead()}: {@code mpage_readahead(rac, blkdev_get_block)}. */
    static void blkdevReadahead(GetBlock getBlock, ReadaheadControl rac) {
        Mpage.mpageReadahead(rac, getBlock);
    }

    /**
     * fs/block_dev.c: {@code blkdev_open()} (v5.10), the part that matters here:
     * {@code filp->f_mode |= FMODE_NOWAIT | FMODE_BUF_RASYNC}, and {@code f_mapping} is the bdev
     * inode's. Without seed 002 ({@code ASYNC_BUFFERED_READS=n}) {@code FMODE_BUF_RASYNC} does not
     * exist and only {@code FMODE_NOWAIT} is set.
     */
    public static File blkdevOpen(BlockDevice bdev, String name, int raPages) {
        File filp = new File(name, bdev.bdInode, raPages);
        filp.fMode |= File.FMODE_NOWAIT;
        if (Kernel.config().enabled(MmOptions.ASYNC_BUFFERED_READS)) {
            filp.fMode |= File.FMODE_BUF_RASYNC;
        }
        return filp;
    }
}
