package kmodel.fs.blockdev;

import kmodel.mm.Inode;

/**
 * include/linux/fs.h: {@code typedef int (get_block_t)(struct inode *inode, sector_t iblock,
 * struct buffer_head *bh_result, int create)}: map file block {@code iblock} to a device block
 * (set {@code bh_result->b_bdev}, {@code b_blocknr} and {@code BH_Mapped}); an unmapped result
 * is a hole. Returns 0 or a negative errno.
 */
public interface GetBlock {
    /** {@code get_block(inode, iblock, bh_result, create)}. */
    int getBlock(Inode inode, long iblock, BufferHead bhResult, int create);
}
