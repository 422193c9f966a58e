package kmodel.fs.blockdev;

import java.util.Arrays;
import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.Kernel;
import kmodel.mm.Filemap;
import kmodel.mm.Inode;
import kmodel.mm.Page;
import kmodel.mm.PageFlags;

/**
 * fs/buffer.c (v5.10): {@code block_read_full_page()} and its completion, for whole-page blocks
 * (one buffer per page). The buffer is a local mapping result, not attached to the page (no
 * {@code page->private}, no {@code b_uptodate_lock}); with one buffer per page the completion
 * logic reduces to: error -> {@code SetPageError}; uptodate and no page error ->
 * {@code SetPageUptodate}; then {@code unlock_page}.
 */
public final class Buffer {
    private Buffer() {
    }

    /**
     * fs/buffer.c: {@code end_buffer_async_read(bh, uptodate)} for the page's only buffer.
     * Unlike {@code page_endio()} it does not clear {@code PG_uptodate} on error.
     */
    static void endBufferAsyncRead(BufferHead bh, boolean uptodate) {
        Page page = bh.bPage;
        if (uptodate) {
            bh.uptodate = true;
        } else {
            bh.uptodate = false;
            Kernel.event("Buffer I/O error, async page read of %s", page);
            PageFlags.SetPageError(page);
        }
        if (bh.uptodate && !PageFlags.PageError(page)) {
            PageFlags.SetPageUptodate(page);
        }
        Filemap.unlockPage(page);
    }

    /**
     * fs/buffer.c: {@code end_bio_bh_io_sync()}: {@code bh->b_end_io(bh, !bio->bi_status)}
     * ({@code end_buffer_async_write()} for a buffer under writeback, else
     * {@code end_buffer_async_read()}), {@code bio_put()}.
     */
    static final BioEndIo END_BIO_BH_IO_SYNC = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            BufferHead bh = (BufferHead) bio.biPrivate;
            if (bh.bAsyncWrite) {
                BufferWrite.endBufferAsyncWrite(bh, bio.biStatus == BlkTypes.BLK_STS_OK);
            } else {
                endBufferAsyncRead(bh, bio.biStatus == BlkTypes.BLK_STS_OK);
            }
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "end_bio_bh_io_sync";
        }
    };

    /**
     * fs/buffer.c: {@code submit_bh_wbc(op, op_flags, bh, ...)} (v5.10): a one-page bio for the
     * buffer, {@code end_bio_bh_io_sync} as end_io, {@code guard_bio_eod()}, {@code submit_bio()}.
     */
    static int submitBh(int op, long opFlags, BufferHead bh) {
        Kernel.BUG_ON(!bh.mapped, "submit_bh: buffer not mapped");
        Bio bio = BlockBio.bioAlloc(bh.bBdev.bdDisk.layer, 1);
        bio.biIter.biSector = bh.bBlocknr * (bh.bSize >> BlkTypes.SECTOR_SHIFT);
        Bio.bioSetDev(bio, bh.bBdev);
        BlockBio.bioAddPage(bio, bh.bPage, bh.bSize, 0);
        Kernel.BUG_ON(bio.biIter.biSize != bh.bSize, "submit_bh: bio size " + bio.biIter.biSize);
        bio.biEndIo = END_BIO_BH_IO_SYNC;
        bio.biPrivate = bh;
        Bio.bioSetOpAttrs(bio, op, opFlags);
        BlockBio.guardBioEod(bio);
        BlkCore.submitBio(bio);
        return 0;
    }

    /**
     * fs/buffer.c: {@code block_read_full_page(page, get_block)} (v5.10) for one whole-page block:
     * map it; a block past EOF or a hole is zeroed and the page, unless {@code get_block} failed,
     * marked uptodate and unlocked without I/O; otherwise read the block with {@code submit_bh()}
     * ({@code REQ_OP_READ}, no {@code REQ_RAHEAD}). Returns 0; the page is unlocked when the read
     * completes.
     */
    public static int blockReadFullPage(Page page, GetBlock getBlock) {
        Inode inode = page.mapping.host;
        Kernel.BUG_ON(inode.iBlkbits != Page.PAGE_SHIFT, "block_read_full_page: only whole-page blocks are modelled");
        int blocksize = 1 << inode.iBlkbits;
        long iblock = page.index;
        long lblock = (inode.iSizeRead() + blocksize - 1) >> inode.iBlkbits;
        BufferHead bh = new BufferHead();
        bh.bPage = page;
        bh.bSize = blocksize;
        int err = 0;
        if (iblock < lblock) {
            err = getBlock.getBlock(inode, iblock, bh, 0);
            if (err != 0) {
                PageFlags.SetPageError(page);
            }
        }
        if (!bh.mapped) {
            Arrays.fill(page.data, (byte) 0);
            if (err == 0) {
                bh.uptodate = true;
            }
            // nr == 0: "All buffers are uptodate - we can set the page uptodate as well. But not
            // if get_block() returned an error."
            if (!PageFlags.PageError(page)) {
                PageFlags.SetPageUptodate(page);
            }
            Filemap.unlockPage(page);
            return 0;
        }
        return submitBh(BlkTypes.REQ_OP_READ, 0, bh);
    }
}
