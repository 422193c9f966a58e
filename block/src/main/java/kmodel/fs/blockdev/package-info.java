/**
 * fs/block_dev.c, fs/mpage.c and the read half of fs/buffer.c (v5.10): the block device file,
 * whose {@code def_blk_aops} read pages through bios into the simulated disk of
 * {@link kmodel.block}, so {@code generic_file_buffered_read()} can be driven end to end before a
 * file system exists. {@link kmodel.fs.blockdev.Bdev} builds such a device for scenarios.
 *
 * <h2>Reads</h2>
 * <ul>
 *   <li>(a) {@code ->readpage}: {@code block_read_full_page()}: one page, one bio, no
 *       {@code REQ_RAHEAD}; may sleep for a request tag. Completion
 *       ({@code end_buffer_async_read()}): uptodate, or {@code PG_error}; unlock.</li>
 *   <li>(b) {@code ->readahead}: {@code mpage_readahead()}: pages whose blocks are contiguous go
 *       into one bio of up to {@code min(nr_pages, BIO_MAX_PAGES)} bvecs, marked
 *       {@code REQ_RAHEAD} (and, with seed 002 patch 01, {@code REQ_NOWAIT}: with no free tag
 *       the bio fails at once with {@code BLK_STS_AGAIN}, in the reader's context). Completion
 *       ({@code mpage_end_io()} -> {@code page_endio()}): uptodate, or
 *       {@code ClearPageUptodate} + {@code PG_error}; unlock each page; {@code bio_put()}.</li>
 * </ul>
 * Page unlocks go through {@code mm}'s {@code Filemap.unlockPage()}, which wakes the page's
 * waiters; completions run in interrupt context.
 *
 * <h2>Writes</h2>
 * <ul>
 *   <li>(c) {@code ->write_begin}/{@code ->write_end}: {@code block_write_begin()} (the page
 *       locked; a block the write does not cover entirely is read first, or zeroed if it was just
 *       allocated), {@code block_write_end()} (uptodate and dirty), and {@code generic_write_end()}
 *       ({@code i_size}) or {@code blkdev_write_end()}; {@link kmodel.fs.blockdev.BufferWrite}.</li>
 *   <li>(d) {@code ->writepage}: {@code block_write_full_page()}: PG_writeback set, one bio
 *       ({@code REQ_OP_WRITE}), the page unlocked; completion ({@code end_buffer_async_write()})
 *       records an error and calls {@code end_page_writeback()} in interrupt context.</li>
 *   <li>{@link kmodel.fs.blockdev.BlockFile}: a regular file laid out block for block on a device
 *       (holes, allocation on write, blocks freed on truncation), the write-path scenarios'
 *       file.</li>
 * </ul>
 *
 * <h2>Limitations</h2>
 * <ul>
 *   <li>Whole-page blocks only; no buffer heads attached to pages (a buffer's uptodate and dirty
 *       state is its page's); {@code __block_write_begin()}'s read is a {@code submit_bio_wait()}
 *       (no buffer lock).</li>
 *   <li>{@code page_endio()} (mm/filemap.c) is modelled in {@link kmodel.fs.blockdev.Mpage} until
 *       mm-filemap provides it.</li>
 *   <li>One global {@code def_blk_aops} in the kernel, one instance per device here
 *       ({@code I_BDEV()} by back-reference).</li>
 * </ul>
 */
package kmodel.fs.blockdev;
