package kmodel.fs.blockdev;

import static kmodel.block.BlkTypes.BIO_MAX_PAGES;
import static kmodel.block.BlkTypes.REQ_OP_READ;
import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import java.util.Arrays;
import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.block.BioVec;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.block.BlockDevice;
import kmodel.kernel.Kernel;
import kmodel.mm.Filemap;
import kmodel.mm.FilemapBugs;
import kmodel.mm.Inode;
import kmodel.mm.Page;
import kmodel.mm.PageFlags;
import kmodel.mm.ReadaheadControl;

/**
 * fs/mpage.c (v5.10): reading pages straight into bios, merging pages whose blocks are contiguous
 * on disk into one bio ({@code mpage_readahead()}, {@code mpage_readpage()}), and the end_io that
 * marks each page uptodate or in error and unlocks it ({@code mpage_end_io()} ->
 * {@code page_endio()}).
 *
 * <h2>Coarse parts</h2>
 * Whole-page blocks only ({@code i_blkbits == PAGE_SHIFT}, {@code blocks_per_page == 1}; this is
 * what a block device whose size is a multiple of the page size gets from
 * {@code set_init_blocksize()}); {@code get_block} is called once per page instead of reusing
 * the previous call's extent ({@code map_bh->b_size}), which gives the same blocks;
 * {@code buffer_boundary()}, pages with buffers ("confused"), {@code bdev_read_page()} and
 * cleancache are not modelled (the model's disks have no {@code ->rw_page}).
 */
public final class Mpage {
    private Mpage() {
    }

    /** fs/mpage.c: {@code struct mpage_readpage_args}. */
    static final class MpageReadpageArgs {
        /** {@code bio}: the bio being built, or null. */
        Bio bio;
        /** {@code page}. */
        Page page;
        /** {@code nr_pages}: pages left in this read, this one included. */
        int nrPages;
        /** {@code is_readahead}. */
        final boolean isReadahead;
        /** {@code last_block_in_bio}. */
        long lastBlockInBio;
        /** {@code map_bh}. */
        final BufferHead mapBh = new BufferHead();
        /** {@code get_block}. */
        final GetBlock getBlock;

        MpageReadpageArgs(GetBlock getBlock, boolean isReadahead) {
            this.getBlock = getBlock;
            this.isReadahead = isReadahead;
        }
    }

    /**
     * mm/filemap.c: {@code page_endio(page, is_write, err)} (v5.10), the end of a page's I/O: a
     * read sets {@code PG_uptodate}, or on error clears it and sets {@code PG_error}, then
     * unlocks the page; a write records an error and ends writeback. (It lives in mm/filemap.c;
     * modelled here next to its only caller until mm-filemap provides it.)
     */
    public static void pageEndio(Page page, boolean isWrite, int err) {
        if (!isWrite && err == 0 && Kernel.bug(FilemapBugs.PAGE_ENDIO_UNLOCK_FIRST)) {
            /* The mutation: unlock first; from here on the page is not ours (no reference held). */
            int gen = page.gen();
            Filemap.unlockPage(page);
            page.lateFlagWrite(gen, PageFlags.PG_uptodate, true, "page_endio");
            PageFlags.SetPageUptodate(page);
            return;
        }
        if (!isWrite) {
            if (err == 0) {
                PageFlags.SetPageUptodate(page);
            } else {
                PageFlags.ClearPageUptodate(page);
                PageFlags.SetPageError(page);
            }
            Filemap.unlockPage(page);
        } else {
            if (err != 0) {
                PageFlags.SetPageError(page);
            }
            Filemap.endPageWriteback(page);
        }
    }

    /**
     * fs/mpage.c: {@code mpage_end_io()} (v5.10): {@code page_endio()} for every page of the bio
     * with the bio's status ({@code bio_for_each_segment_all}: the bio owns its table), then
     * {@code bio_put()}. Runs in interrupt context, or in the submitter's when the bio failed at
     * submit ({@code BLK_STS_AGAIN}, {@code BLK_STS_NOTSUPP}).
     */
    static final BioEndIo MPAGE_END_IO = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            int err = BlkCore.blkStatusToErrno(bio.biStatus);
            boolean write = BlkTypes.opIsWrite(Bio.bioOp(bio));
            for (BioVec bv : Bio.bioForEachSegmentAll(bio)) {
                pageEndio(bv.bvPage, write, err);
            }
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "mpage_end_io";
        }
    };

    /**
     * fs/mpage.c: {@code mpage_bio_submit(op, op_flags, bio)} (v5.10): set the end_io and the
     * operation, {@code guard_bio_eod()}, {@code submit_bio()}; returns null (no bio being built).
     */
    static Bio mpageBioSubmit(int op, long opFlags, Bio bio) {
        bio.biEndIo = MPAGE_END_IO;
        Bio.bioSetOpAttrs(bio, op, opFlags);
        BlockBio.guardBioEod(bio);
        BlkCore.submitBio(bio);
        return null;
    }

    /** fs/mpage.c: {@code mpage_alloc()}: a bio for {@code nrVecs} pages at {@code firstSector}. */
    static Bio mpageAlloc(BlockDevice bdev, long firstSector, int nrVecs) {
        Bio bio = BlockBio.bioAlloc(bdev.bdDisk.layer, nrVecs);
        Bio.bioSetDev(bio, bdev);
        bio.biIter.biSector = firstSector;
        return bio;
    }

    /**
     * fs/mpage.c: {@code do_mpage_readpage()} (v5.10) for one whole-page block: map the page's
     * block; a hole (or a page past EOF) is zeroed, marked uptodate and unlocked without I/O;
     * otherwise the page goes into {@code args->bio}, which is first submitted if the block does
     * not follow the bio's last block, and submitted and replaced when it is full. Read-ahead
     * bios carry {@code REQ_RAHEAD} ({@link BlkTypes#reqRahead()}). Returns the bio being built.
     */
    static Bio doMpageReadpage(MpageReadpageArgs args) {
        Page page = args.page;
        Inode inode = page.mapping.host;
        int blkbits = inode.iBlkbits;
        Kernel.BUG_ON(blkbits != Page.PAGE_SHIFT, "do_mpage_readpage: only whole-page blocks are modelled");
        long opFlags = args.isReadahead ? BlkTypes.reqRahead() : 0;
        long blockInFile = page.index;
        long lastBlock = blockInFile + args.nrPages;
        long lastBlockInFile = (inode.iSizeRead() + (1L << blkbits) - 1) >> blkbits;
        if (lastBlock > lastBlockInFile) {
            lastBlock = lastBlockInFile;
        }
        BufferHead mapBh = args.mapBh;
        mapBh.mapped = false;
        mapBh.bSize = 0;
        mapBh.bPage = page;
        if (blockInFile < lastBlock) {
            mapBh.bSize = (int) Math.min(Integer.MAX_VALUE, (lastBlock - blockInFile) << blkbits);
            if (args.getBlock.getBlock(inode, blockInFile, mapBh, 0) != 0) {
                return confused(args, opFlags);
            }
        }
        if (!mapBh.mapped) {
            // first_hole == 0: zero_user_segment(), SetPageUptodate(), unlock_page()
            Arrays.fill(page.data, (byte) 0);
            PageFlags.SetPageUptodate(page);
            Filemap.unlockPage(page);
            return args.bio;
        }
        long block = mapBh.bBlocknr;
        // "This page will go to BIO. Do we need to send this BIO off first?"
        if (args.bio != null && args.lastBlockInBio != block - 1) {
            args.bio = mpageBioSubmit(REQ_OP_READ, opFlags, args.bio);
        }
        for (;;) {
            if (args.bio == null) {
                args.bio = mpageAlloc(mapBh.bBdev, block << (blkbits - SECTOR_SHIFT), Math.min(args.nrPages, BIO_MAX_PAGES));
            }
            if (BlockBio.bioAddPage(args.bio, page, Page.PAGE_SIZE, 0) < Page.PAGE_SIZE) {
                args.bio = mpageBioSubmit(REQ_OP_READ, opFlags, args.bio);
                continue;
            }
            break;
        }
        args.lastBlockInBio = block;
        return args.bio;
    }

    /**
     * fs/mpage.c: the {@code confused:} exit of {@code do_mpage_readpage()}: submit what was built,
     * then read the page through the buffer path ({@code block_read_full_page()}).
     */
    private static Bio confused(MpageReadpageArgs args, long opFlags) {
        if (args.bio != null) {
            args.bio = mpageBioSubmit(REQ_OP_READ, opFlags, args.bio);
        }
        if (!PageFlags.PageUptodate(args.page)) {
            Buffer.blockReadFullPage(args.page, args.getBlock);
        } else {
            Filemap.unlockPage(args.page);
        }
        return args.bio;
    }

    /**
     * fs/mpage.c: {@code mpage_readahead(rac, get_block)} (v5.8+): for each page of the batch
     * ({@code readahead_page()}, which hands over the allocation's reference), add it to the bio
     * being built ({@code nr_pages = readahead_count(rac)}), then {@code put_page()}; finally
     * submit the last bio with {@code REQ_RAHEAD}.
     */
    public static void mpageReadahead(ReadaheadControl rac, GetBlock getBlock) {
        MpageReadpageArgs args = new MpageReadpageArgs(getBlock, true);
        Page page;
        while ((page = rac.readaheadPage()) != null) {
            args.page = page;
            args.nrPages = rac.readaheadCount();
            args.bio = doMpageReadpage(args);
            Page.putPage(page);
        }
        if (args.bio != null) {
            mpageBioSubmit(REQ_OP_READ, BlkTypes.reqRahead(), args.bio);
        }
    }

    /** fs/mpage.c: {@code mpage_readpage(page, get_block)}: one page, not read-ahead. */
    public static int mpageReadpage(Page page, GetBlock getBlock) {
        MpageReadpageArgs args = new MpageReadpageArgs(getBlock, false);
        args.page = page;
        args.nrPages = 1;
        args.bio = doMpageReadpage(args);
        if (args.bio != null) {
            mpageBioSubmit(REQ_OP_READ, 0, args.bio);
        }
        return 0;
    }
}
