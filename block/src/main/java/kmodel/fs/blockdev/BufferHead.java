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
    /** {@code BH_New}: {@code get_block(create)} just allocated the block; its old contents are garbage. */
    public boolean bNew;
    /**
     * {@code BH_Async_Write}: the buffer is being written back by {@code __block_write_full_page()};
     * its {@code b_end_io} is {@code end_buffer_async_write()} (else {@code end_buffer_async_read()}).
     */
    public boolean bAsyncWrite;
}
