package kmodel.fs.blockdev;

import kmodel.block.BlockDevice;
import kmodel.mm.Page;

/**
 * include/linux/buffer_head.h: {@code struct buffer_head}, only as the mapping result that
 * {@code get_block()} fills in ({@code map_bh} of fs/mpage.c, the single buffer of a whole-page
 * block in {@code block_read_full_page()}). Buffers are not attached to pages
 * ({@code page->private}) in the model.
 */
public final class BufferHead {
    /** {@code b_page}. */
    public Page bPage;
    /** {@code b_blocknr}: block number on {@code b_bdev}, in units of {@code b_size}. */
    public long bBlocknr;
    /** {@code b_size}. */
    public int bSize;
    /** {@code b_bdev}. */
    public BlockDevice bBdev;
    /** {@code BH_Mapped}: {@code b_bdev}/{@code b_blocknr} are valid. */
    public boolean mapped;
    /** {@code BH_Uptodate}. */
    public boolean uptodate;
}
