package kmodel.fs.blockdev;

import static kmodel.mm.Page.PAGE_SHIFT;
import static kmodel.mm.Page.PAGE_SIZE;

import java.util.Arrays;
import kmodel.block.Bio;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.mm.AddressSpace;
import kmodel.mm.File;
import kmodel.mm.Filemap;
import kmodel.mm.FilemapWrite;
import kmodel.mm.Inode;
import kmodel.mm.Page;
import kmodel.mm.PageFlags;
import kmodel.mm.PageWriteback;
import kmodel.mm.WritebackControl;

/**
 * fs/buffer.c (v5.10), the write half, for whole-page blocks (one buffer per page, not attached
 * to it): {@code block_write_begin()}/{@code block_write_end()}/{@code generic_write_end()} for
 * {@code generic_perform_write()}, and {@code block_write_full_page()} with its completion
 * {@code end_buffer_async_write()} for writeback.
 *
 * <h2>Coarse parts</h2>
 * The model keeps no buffer heads on pages, so a buffer's state is the page's: BH_Uptodate is
 * PG_uptodate, BH_Dirty is PG_dirty. {@code __block_write_begin()}'s read of a block that a
 * partial write does not cover ({@code ll_rw_block()} + {@code wait_on_buffer()}) is a one-page
 * {@code submit_bio_wait()} (the buffer lock is not modelled); its {@code buffer_new} case (a
 * block the file system just allocated) zeroes the bytes the write does not cover.
 * {@code __block_write_full_page()} maps the block with {@code get_block(create=1)} each time,
 * marks the page under writeback, submits one bio and unlocks; a {@code get_block} failure takes
 * the kernel's {@code recover:} path reduced to one buffer. No {@code pagecache_isize_extended()}
 * (no mmap), no {@code mark_inode_dirty()}.
 */
public final class BufferWrite {
    private BufferWrite() {
    }

    /**
     * fs/buffer.c: {@code mark_buffer_dirty(bh)} (v5.10) for the page's only buffer: if the page
     * was clean, {@code __set_page_dirty(page, mapping, 0)} (the DIRTY mark, without the
     * not-uptodate warning of {@code __set_page_dirty_nobuffers()}).
     */
    static void markBufferDirty(Page page) {
        if (!PageFlags.TestSetPageDirty(page)) {
            AddressSpace mapping = page.mapping;
            if (mapping != null) {
                PageWriteback.__setPageDirty(page, mapping, 0);
            }
        }
    }

    /**
     * fs/buffer.c: {@code __block_write_begin(page, pos, len, get_block)} (v5.10) for one
     * whole-page buffer: nothing to do for an uptodate page; otherwise map the block
     * ({@code create = 1}); a new block gets the bytes outside {@code [from, to)} zeroed; a
     * mapped old block that the write does not cover entirely is read first ({@code -EIO} if
     * that fails). Returns 0 or a negative errno.
     */
    static int __blockWriteBegin(Page page, long pos, int len, GetBlock getBlock) {
        int from = (int) (pos & (PAGE_SIZE - 1));
        int to = from + len;
        Inode inode = page.mapping.host;
        Kernel.BUG_ON(!PageFlags.PageLocked(page), "__block_write_begin: page not locked");
        if (PageFlags.PageUptodate(page)) {
            return 0;
        }
        BufferHead bh = new BufferHead();
        bh.bPage = page;
        bh.bSize = PAGE_SIZE;
        int err = getBlock.getBlock(inode, page.index, bh, 1);
        if (err != 0) {
            return err;
        }
        if (bh.bNew) {
            /* clean_bdev_bh_alias(); zero what the write will not fill */
            if (to < PAGE_SIZE || from > 0) {
                page.touch();
                Arrays.fill(page.data, to, PAGE_SIZE, (byte) 0);
                Arrays.fill(page.data, 0, from, (byte) 0);
            }
            return 0;
        }
        if (from > 0 || to < PAGE_SIZE) {
            /* ll_rw_block(REQ_OP_READ, 0, 1, &bh); wait_on_buffer(bh) */
            Bio bio = BlockBio.bioAlloc(bh.bBdev.bdDisk.layer, 1);
            bio.biIter.biSector = bh.bBlocknr * (bh.bSize >> BlkTypes.SECTOR_SHIFT);
            Bio.bioSetDev(bio, bh.bBdev);
            BlockBio.bioAddPage(bio, page, bh.bSize, 0);
            Bio.bioSetOpAttrs(bio, BlkTypes.REQ_OP_READ, 0);
            int ret = BlockBio.submitBioWait(bio);
            BlockBio.bioPut(bio);
            if (ret != 0) {
                return -Errno.EIO;
            }
        }
        return 0;
    }

    /**
     * fs/buffer.c: {@code block_write_begin(mapping, pos, len, flags, pagep, get_block)} (v5.10):
     * {@code grab_cache_page_write_begin()} (locked, referenced), {@code __block_write_begin()};
     * on failure unlock and put the page. Returns 0 or a negative errno.
     */
    public static int blockWriteBegin(AddressSpace mapping, long pos, int len, int flags, Page[] pagep,
            GetBlock getBlock) {
        long index = pos >> PAGE_SHIFT;
        Page page = FilemapWrite.grabCachePageWriteBegin(mapping, index, flags);
        if (page == null) {
            return -Errno.ENOMEM;
        }
        int status = __blockWriteBegin(page, pos, len, getBlock);
        if (status != 0) {
            Filemap.unlockPage(page);
            Page.putPage(page);
            page = null;
        }
        pagep[0] = page;
        return status;
    }

    /**
     * fs/buffer.c: {@code block_write_end()} (v5.10): a short copy into a page that is not
     * uptodate commits nothing ("force the caller to redo the whole thing"); otherwise
     * {@code __block_commit_write()}: the buffer is uptodate and dirty
     * ({@code mark_buffer_dirty()}), and with it, the page's only buffer, the page is uptodate.
     * Returns the bytes committed.
     */
    public static int blockWriteEnd(File file, AddressSpace mapping, long pos, int len, int copied, Page page) {
        if (copied < len) {
            if (!PageFlags.PageUptodate(page)) {
                copied = 0;
            }
        }
        if (copied > 0 || PageFlags.PageUptodate(page)) {
            /* __block_commit_write(): set_buffer_uptodate(), mark_buffer_dirty(), then SetPageUptodate() */
            markBufferDirty(page);
            PageFlags.SetPageUptodate(page);
        }
        return copied;
    }

    /**
     * fs/buffer.c: {@code generic_write_end()} (v5.10): {@code block_write_end()}, then, still under
     * the page lock ("page writeout could otherwise come in and zero beyond i_size"), extend
     * {@code i_size}; unlock and put the page. The caller holds {@code i_rwsem}, so
     * {@code i_size} is read plainly.
     */
    public static int genericWriteEnd(File file, AddressSpace mapping, long pos, int len, int copied, Page page) {
        Inode inode = mapping.host;
        copied = blockWriteEnd(file, mapping, pos, len, copied, page);
        if (pos + copied > inode.iSize.plain()) {
            inode.iSizeWrite(pos + copied);
            Kernel.event("i_size_write(%s, %s)", inode, pos + copied);
        }
        Filemap.unlockPage(page);
        Page.putPage(page);
        return copied;
    }

    /**
     * fs/block_dev.c: {@code blkdev_write_end()} (v5.10): {@code block_write_end()}, unlock, put;
     * a block device's size does not change.
     */
    public static int blkdevWriteEnd(File file, AddressSpace mapping, long pos, int len, int copied, Page page) {
        int ret = blockWriteEnd(file, mapping, pos, len, copied, page);
        Filemap.unlockPage(page);
        Page.putPage(page);
        return ret;
    }

    /**
     * fs/buffer.c: {@code end_buffer_async_write(bh, uptodate)} (v5.10) for the page's only
     * buffer, in interrupt context: on error record it ({@code mark_buffer_write_io_error()}:
     * {@code mapping_set_error(-EIO)}) and {@code SetPageError}; then
     * {@code end_page_writeback()}.
     */
    static void endBufferAsyncWrite(BufferHead bh, boolean uptodate) {
        Page page = bh.bPage;
        if (!uptodate) {
            Kernel.event("Buffer I/O error, lost async page write of %s", page);
            if (page.mapping != null && !Kernel.bug(kmodel.block.BlockBugs.ASYNC_WRITE_ERROR_NOT_RECORDED)) {
                PageWriteback.mappingSetError(page.mapping, -Errno.EIO);
            }
            PageFlags.SetPageError(page);
        }
        Filemap.endPageWriteback(page);
    }

    /**
     * fs/buffer.c: {@code __block_write_full_page()} (v5.10) for one whole-page buffer: map the
     * block ({@code get_block(create = 1)}); {@code BUG_ON(PageWriteback(page))};
     * {@code set_page_writeback()}; submit the buffer ({@code REQ_OP_WRITE}, {@code REQ_SYNC}
     * for WB_SYNC_ALL); {@code unlock_page()}. A mapping failure: the kernel's {@code recover:}
     * path (error recorded, writeback set and ended at once, page unlocked).
     */
    static int __blockWriteFullPage(Inode inode, Page page, GetBlock getBlock, WritebackControl wbc) {
        BufferHead bh = new BufferHead();
        bh.bPage = page;
        bh.bSize = PAGE_SIZE;
        bh.bAsyncWrite = true;
        int err = getBlock.getBlock(inode, page.index, bh, 1);
        if (err != 0 || !bh.mapped) {
            /* recover: */
            PageWriteback.mappingSetError(page.mapping, err != 0 ? err : -Errno.EIO);
            PageFlags.SetPageError(page);
            Kernel.BUG_ON(PageFlags.PageWriteback(page), "__block_write_full_page: BUG_ON(PageWriteback(page))");
            Filemap.setPageWriteback(page);
            Filemap.unlockPage(page);
            Filemap.endPageWriteback(page);
            return err != 0 ? err : -Errno.EIO;
        }
        /* The page and its buffers are protected by PageWriteback(), so we can drop the bh refcounts early. */
        Kernel.BUG_ON(PageFlags.PageWriteback(page), "__block_write_full_page: BUG_ON(PageWriteback(page))");
        Filemap.setPageWriteback(page);
        long writeFlags = wbc != null && wbc.syncMode == WritebackControl.WB_SYNC_ALL ? BlkTypes.REQ_SYNC : 0;
        Buffer.submitBh(BlkTypes.REQ_OP_WRITE, writeFlags, bh);
        Filemap.unlockPage(page);
        return 0;
    }

    /**
     * fs/buffer.c: {@code block_write_full_page(page, get_block, wbc)} (v5.10): a page inside
     * {@code i_size} is written; a page wholly outside it ("truncate in progress") is only
     * unlocked; a page straddling it has its tail zeroed first ("it may be mmapped").
     */
    public static int blockWriteFullPage(Page page, GetBlock getBlock, WritebackControl wbc) {
        Inode inode = page.mapping.host;
        long iSize = inode.iSizeRead();
        long endIndex = iSize >> PAGE_SHIFT;

        /* Is the page fully inside i_size? */
        if (page.index < endIndex) {
            return __blockWriteFullPage(inode, page, getBlock, wbc);
        }
        /* Is the page fully outside i_size? (truncate in progress) */
        int offset = (int) (iSize & (PAGE_SIZE - 1));
        if (page.index >= endIndex + 1 || offset == 0) {
            Kernel.event("block_write_full_page(%s): beyond i_size, not written", page);
            Filemap.unlockPage(page);
            return 0; /* don't care */
        }
        /* The page straddles i_size: it must be zeroed out on each and every writepage invocation. */
        page.touch();
        Arrays.fill(page.data, offset, PAGE_SIZE, (byte) 0);
        return __blockWriteFullPage(inode, page, getBlock, wbc);
    }
}
