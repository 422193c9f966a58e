package kmodel.fs.btrfs;

import static kmodel.block.BlkTypes.SECTOR_SHIFT;
import static kmodel.fs.btrfs.ExtentMap.EXTENT_FLAG_COMPRESSED;
import static kmodel.fs.btrfs.ExtentMap.EXTENT_FLAG_PREALLOC;
import static kmodel.fs.btrfs.ExtentMap.EXTENT_MAP_HOLE;
import static kmodel.fs.btrfs.ExtentMap.EXTENT_MAP_INLINE;

import java.util.Arrays;
import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.block.BioVec;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.Filemap;
import kmodel.mm.Page;
import kmodel.mm.PageFlags;
import kmodel.mm.ReadaheadControl;

/**
 * fs/btrfs/extent_io.c (v5.10), the buffered read path: {@code extent_readahead()} ->
 * {@code contiguous_readpages()} -> {@code btrfs_do_readpage()} -> {@code submit_extent_page()}
 * (building and merging bios), {@code submit_one_bio()}, and the completion
 * {@code end_bio_extent_readpage()} with checksum verification and read repair
 * ({@link ReadRepair}). The older {@code ->readpages} loops of seed 000 are in
 * {@link ExtentReadpages}.
 *
 * <h2>The merge rule ({@code submit_extent_page()})</h2>
 * A block joins the bio being built only if all hold, tested in this order:
 * <ol>
 *   <li>(a) the same {@code bio_flags} (compressed or not, and the compression type);</li>
 *   <li>(b) contiguous: the block's disk sector is the bio's end sector; for a compressed bio, the
 *       same <em>start</em> sector (every page of a compressed extent is read from it);</li>
 *   <li>(c) it stays within the stripe ({@code btrfs_bio_fits_in_stripe()});</li>
 *   <li>(d) no {@code force_bio_submit} (a compressed extent map other than the previous one,
 *       {@code prev_em_start});</li>
 *   <li>(e) {@code bio_add_page()} takes it (the bio is not full).</li>
 * </ol>
 * Otherwise the bio is submitted and a new one started with the block.
 *
 * <h2>Page references and locks</h2>
 * Every page handed to {@code btrfs_do_readpage()} is locked, in the page cache, and the caller
 * holds a reference it drops afterwards. The bio holds no page reference; the page cache's keeps
 * the page alive until {@code end_bio_extent_readpage()} unlocks it. A page gets exactly one
 * {@code unlock_page()}: from {@code btrfs_do_readpage()} when no block of it went to a bio
 * ({@code nr == 0}), else from the completion.
 *
 * <h2>Coarse parts</h2>
 * {@code sectorsize == PAGE_SIZE} (one block per page); no extent-state locking or ordered
 * extents; cleancache, fs-verity and {@code set_page_extent_mapped()} are not modelled.
 */
public final class ExtentIo {
    /** fs/btrfs/extent_io.h: {@code EXTENT_BIO_COMPRESSED}. */
    public static final int EXTENT_BIO_COMPRESSED = 1;
    /** fs/btrfs/extent_io.h: {@code EXTENT_BIO_FLAG_SHIFT}. */
    public static final int EXTENT_BIO_FLAG_SHIFT = 16;
    /** include/linux/page-flags.h: {@code PG_checked} ({@code PG_owner_priv_1}, bit 10 in v5.10). */
    public static final int PG_checked = 10;

    private ExtentIo() {
    }

    /** The bio being built and its flags: C's {@code struct bio **bio} and {@code unsigned long *bio_flags}. */
    public static final class BioRef {
        /** {@code *bio}. */
        public Bio bio;
        /** {@code *bio_flags}: the flags of {@link #bio}. */
        public int bioFlags;
    }

    /** include/linux/page-flags.h: {@code SetPageChecked()}. */
    static void SetPageChecked(Page page) {
        page.touch();
        Bitops.setBit(PG_checked, page.flags);
    }

    /** include/linux/page-flags.h: {@code PageChecked()} then {@code ClearPageChecked()} if set. */
    static boolean TestClearPageChecked(Page page) {
        page.touch();
        if (Bitops.testBit(PG_checked, page.flags)) {
            Bitops.clearBit(PG_checked, page.flags);
            return true;
        }
        return false;
    }

    /** fs/btrfs/extent_io.h: {@code extent_set_compress_type(&bio_flags, type)}. */
    static int extentSetCompressType(int bioFlags, int type) {
        return bioFlags | (type << EXTENT_BIO_FLAG_SHIFT);
    }

    /** fs/btrfs/extent_io.h: {@code extent_compress_type(bio_flags)}. */
    static int extentCompressType(int bioFlags) {
        return bioFlags >> EXTENT_BIO_FLAG_SHIFT;
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_bio_alloc(first_byte)} (v5.10): a bio from
     * {@code btrfs_bioset} for {@code BIO_MAX_PAGES} pages at logical {@code firstByte}. Cannot fail
     * in v5.10; the model can make it return null ({@code BTRFS_BIO_ALLOC_FAIL}), as v3.6 to v4.12
     * could.
     */
    static Bio btrfsBioAlloc(BtrfsFsInfo fsInfo, long firstByte) {
        int failAt = (int) Kernel.config().value(BtrfsOptions.BTRFS_BIO_ALLOC_FAIL);
        if (failAt != 0) {
            Spinlock.spinLock(fsInfo.allocLock);
            int n = ++fsInfo.bioAllocs;
            Spinlock.spinUnlock(fsInfo.allocLock);
            if (n == failAt) {
                fsInfo.stats.allocFailures++;
                Kernel.event("btrfs_bio_alloc: -ENOMEM (allocation %s)", n);
                return null;
            }
        }
        Bio bio = BlockBio.bioAllocBioset(BlkTypes.BIO_MAX_PAGES, fsInfo.btrfsBioset);
        bio.biIter.biSector = firstByte >> SECTOR_SHIFT;
        return bio;
    }

    /**
     * fs/btrfs/extent_io.c: {@code submit_extent_page(opf, wbc, page, offset, size, pg_offset,
     * bio_ret, end_io_func, mirror_num, prev_bio_flags, bio_flags, force_bio_submit)} (v5.10): add
     * the block at disk address {@code offset} to {@code *bio_ret} if the merge rule allows (see
     * the class notes), else submit that bio and start a new one. Returns 0, or a negative errno
     * (the failed {@code submit_one_bio()}, or the allocation failure of pre-v4.13 kernels): then
     * {@code *bio_ret} is NULL.
     */
    static int submitExtentPage(long opf, Page page, long offset, int size, int pgOffset, BioRef bioRet,
            BioEndIo endIoFunc, int mirrorNum, int prevBioFlags, int bioFlags, boolean forceBioSubmit) {
        BtrfsInode inode = BtrfsInode.btrfsI(page.mapping.host);
        int ret = 0;
        int pageSize = Math.min(size, Page.PAGE_SIZE);
        long sector = offset >> SECTOR_SHIFT;
        Bio bio = bioRet.bio;
        if (bio != null) {
            boolean contig;
            boolean canMerge = true;
            if ((prevBioFlags & EXTENT_BIO_COMPRESSED) != 0) {
                contig = bio.biIter.biSector == sector;
            } else {
                contig = Bio.bioEndSector(bio) == sector;
            }
            if (BtrfsInodeOps.btrfsBioFitsInStripe(inode.fsInfo, pageSize, bio, bioFlags) != 0) {
                canMerge = false;
            }
            if (prevBioFlags != bioFlags || !contig || !canMerge || forceBioSubmit
                    || BlockBio.bioAddPage(bio, page, pageSize, pgOffset) < pageSize) {
                if (Kernel.rt().tracing()) {
                    Kernel.event("submit_extent_page(%s): %s", page, prevBioFlags != bioFlags ? "bio_flags differ"
                            : !contig ? "not contiguous" : !canMerge ? "stripe boundary" : forceBioSubmit
                                    ? "force_bio_submit" : "bio full");
                }
                ret = submitOneBio(bio, mirrorNum, prevBioFlags);
                if (ret < 0) {
                    bioRet.bio = null;
                    return ret;
                }
                bio = null;
            } else {
                return 0;
            }
        }
        bio = btrfsBioAlloc(inode.fsInfo, offset);
        if (bio == null) {
            /* v3.6-v4.12: "if (!bio) return -ENOMEM;" (the model also forgets the bio it just submitted) */
            bioRet.bio = null;
            return -Errno.ENOMEM;
        }
        BlockBio.bioAddPage(bio, page, pageSize, pgOffset);
        bio.biEndIo = endIoFunc;
        bio.biPrivate = inode;
        bio.biOpf = opf;
        bioRet.bio = bio;
        return ret;
    }

    /**
     * fs/btrfs/extent_io.c: {@code submit_one_bio(bio, mirror_num, bio_flags)} (v5.10): hand the bio
     * to the inode's submit hook ({@code btrfs_submit_data_bio()}); returns an errno.
     */
    static int submitOneBio(Bio bio, int mirrorNum, int bioFlags) {
        BtrfsInode inode = (BtrfsInode) bio.biPrivate;
        bio.biPrivate = null;
        inode.fsInfo.stats.countBio(bio.biVcnt);
        Kernel.event("submit_one_bio(%s): %s page(s)", bio, bio.biVcnt);
        int ret = BtrfsInodeOps.btrfsSubmitDataBio(inode, bio, mirrorNum, bioFlags);
        return BlkCore.blkStatusToErrno(ret);
    }

    /**
     * fs/btrfs/extent_io.c: {@code __get_extent_map(inode, page, pg_offset, start, len, em_cached)}
     * (v5.10): the cached map if it is still in its tree and covers {@code start}, else
     * {@code btrfs_get_extent()}, which becomes the new cached map. Returns a reference.
     */
    static ExtentMap __getExtentMap(BtrfsInode inode, Page page, int pgOffset, long start, long len,
            ExtentMap[] emCached) {
        ExtentMap em;
        if (emCached != null && emCached[0] != null) {
            em = emCached[0];
            if (ExtentMap.extentMapInTree(em) && start >= em.start && start < ExtentMap.extentMapEnd(em)) {
                ExtentMap.get(em);
                return em;
            }
            ExtentMap.freeExtentMap(em);
            emCached[0] = null;
        }
        em = BtrfsInodeOps.btrfsGetExtent(inode, page, pgOffset, start, len);
        if (emCached != null && em != null) {
            Kernel.BUG_ON(emCached[0] != null, "__get_extent_map: em_cached set");
            ExtentMap.get(em);
            emCached[0] = em;
        }
        return em;
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_do_readpage(page, em_cached, bio, bio_flags, read_flags,
     * prev_em_start)} (v5.10): read one locked page. The tail past {@code i_size} and holes are
     * zero-filled, an inline extent was copied by {@code btrfs_get_extent()}; other blocks go to
     * {@link #submitExtentPage} (compressed: the whole on-disk extent, {@code force_bio_submit} when
     * a compressed map differs from the previous one). If no block went to a bio the page is marked
     * uptodate (unless in error) and unlocked here.
     */
    static int btrfsDoReadpage(Page page, ExtentMap[] emCached, BioRef bio, long readFlags, long[] prevEmStart) {
        BtrfsInode inode = BtrfsInode.btrfsI(page.mapping.host);
        long start = BtrfsInodeOps.pageOffset(page);
        long end = start + Page.PAGE_SIZE - 1;
        long cur = start;
        long lastByte = inode.vfsInode.iSizeRead();
        int ret = 0;
        int nr = 0;
        int pgOffset = 0;
        int blocksize = inode.fsInfo.sectorsize;

        if (page.index == lastByte >> Page.PAGE_SHIFT) {
            int zeroOffset = (int) (lastByte & (Page.PAGE_SIZE - 1));
            if (zeroOffset != 0) {
                page.touch();
                Arrays.fill(page.data, zeroOffset, Page.PAGE_SIZE, (byte) 0);
            }
        }
        while (cur <= end) {
            boolean forceBioSubmit = false;
            int thisBioFlag = 0;
            if (cur >= lastByte) {
                page.touch();
                Arrays.fill(page.data, pgOffset, Page.PAGE_SIZE, (byte) 0);
                break;
            }
            ExtentMap em = __getExtentMap(inode, page, pgOffset, cur, end - cur + 1, emCached);
            if (em == null) {
                PageFlags.SetPageError(page);
                break;
            }
            long extentOffset = cur - em.start;
            Kernel.BUG_ON(ExtentMap.extentMapEnd(em) <= cur, "btrfs_do_readpage: extent_map_end(em) <= cur");
            if (em.test(EXTENT_FLAG_COMPRESSED)) {
                thisBioFlag |= EXTENT_BIO_COMPRESSED;
                thisBioFlag = extentSetCompressType(thisBioFlag, em.compressType);
            }
            long iosize = Math.min(ExtentMap.extentMapEnd(em) - cur, end - cur + 1);
            iosize = (iosize + blocksize - 1) / blocksize * blocksize;
            long diskBytenr;
            if ((thisBioFlag & EXTENT_BIO_COMPRESSED) != 0) {
                diskBytenr = em.blockStart;
            } else {
                diskBytenr = em.blockStart + extentOffset;
            }
            long blockStart = em.blockStart;
            if (em.test(EXTENT_FLAG_PREALLOC)) {
                blockStart = EXTENT_MAP_HOLE;
            }
            /*
             * A file range that points to a compressed extent followed by one that points to the same
             * compressed extent (another offset/length) must not share a bio: the compressed read
             * decompresses for one extent map only and would zero the second range.
             */
            long emStart = Kernel.bug(BtrfsBugs.PREV_EM_ORIG_START) ? em.origStart : em.start;
            if (em.test(EXTENT_FLAG_COMPRESSED) && prevEmStart != null && prevEmStart[0] != -1L
                    && prevEmStart[0] != emStart) {
                forceBioSubmit = true;
            }
            if (prevEmStart != null) {
                prevEmStart[0] = emStart;
            }
            ExtentMap.freeExtentMap(em);
            em = null;

            /* we've found a hole, just zero and go on */
            if (blockStart == EXTENT_MAP_HOLE) {
                page.touch();
                Arrays.fill(page.data, pgOffset, (int) Math.min(Page.PAGE_SIZE, pgOffset + iosize), (byte) 0);
                cur += iosize;
                pgOffset += (int) iosize;
                continue;
            }
            /* the get_extent function already copied into the page */
            if (testRangeUptodate(inode, cur)) {
                cur += iosize;
                pgOffset += (int) iosize;
                continue;
            }
            /* we have an inline extent but it didn't get marked up to date.  Error out */
            if (blockStart == EXTENT_MAP_INLINE) {
                PageFlags.SetPageError(page);
                cur += iosize;
                pgOffset += (int) iosize;
                continue;
            }
            ret = submitExtentPage(BlkTypes.REQ_OP_READ | readFlags, page, diskBytenr, (int) iosize, pgOffset, bio,
                    END_BIO_EXTENT_READPAGE, 0, bio.bioFlags, thisBioFlag, forceBioSubmit);
            if (ret == 0) {
                nr++;
                bio.bioFlags = thisBioFlag;
            } else {
                PageFlags.SetPageError(page);
                if (Kernel.bug(BtrfsBugs.READPAGE_ERROR_KEEPS_LOCK)) {
                    /* the mutation: return at the error, past the nr == 0 unlock below */
                    return ret;
                }
                break;
            }
            cur += iosize;
            pgOffset += (int) iosize;
        }
        if (nr == 0) {
            if (!PageFlags.PageError(page)) {
                PageFlags.SetPageUptodate(page);
            }
            Filemap.unlockPage(page);
        }
        return ret;
    }

    /**
     * fs/btrfs/extent_io.c: {@code test_range_bit(io_tree, cur, cur_end, EXTENT_UPTODATE, 1, NULL)} for one
     * block. Coarse: the kernel takes {@code io_tree->lock} for the test; the model tests without
     * it when no range was ever marked (no inline extent was copied), which saves two scheduling
     * points per block on files without inline extents and changes no outcome: the set is only
     * ever added to, under the lock, by {@code btrfs_get_extent()} of an inline extent.
     */
    private static boolean testRangeUptodate(BtrfsInode inode, long cur) {
        if (inode.ioTreeUptodate.isEmpty()) {
            return false;
        }
        Spinlock.spinLock(inode.ioTreeLock);
        boolean up = inode.ioTreeUptodate.contains(cur);
        Spinlock.spinUnlock(inode.ioTreeLock);
        return up;
    }

    /**
     * fs/btrfs/extent_io.c: {@code contiguous_readpages(pages, nr_pages, start, end, em_cached, bio,
     * bio_flags, prev_em_start)} (v5.10): {@code btrfs_lock_and_flush_ordered_range()} (nothing to
     * flush in the model), then each page read as read-ahead and its reference put.
     */
    static void contiguousReadpages(Page[] pages, int nrPages, ExtentMap[] emCached, BioRef bio, long[] prevEmStart) {
        for (int index = 0; index < nrPages; index++) {
            btrfsDoReadpage(pages[index], emCached, bio, BlkTypes.reqRahead(), prevEmStart);
            Page.putPage(pages[index]);
        }
    }

    /**
     * fs/btrfs/extent_io.c: {@code extent_readahead(rac)} (v5.10): take the read-ahead pages 16 at a
     * time ({@code readahead_page_batch(rac, pagepool)}, each batch contiguous), read each batch into
     * the same bio chain, drop the cached map, submit the last bio.
     */
    public static void extentReadahead(ReadaheadControl rac) {
        BioRef bio = new BioRef();
        Page[] pagepool = new Page[16];
        ExtentMap[] emCached = new ExtentMap[1];
        long[] prevEmStart = {-1L};
        int nr;
        while ((nr = rac.readaheadPageBatch(pagepool)) != 0) {
            long contigStart = BtrfsInodeOps.pageOffset(pagepool[0]);
            long contigEnd = BtrfsInodeOps.pageOffset(pagepool[nr - 1]) + Page.PAGE_SIZE - 1;
            Kernel.BUG_ON(contigStart + (long) nr * Page.PAGE_SIZE - 1 != contigEnd, "extent_readahead: batch not contiguous");
            contiguousReadpages(pagepool, nr, emCached, bio, prevEmStart);
        }
        if (emCached[0] != null) {
            ExtentMap.freeExtentMap(emCached[0]);
        }
        if (bio.bio != null) {
            submitOneBio(bio.bio, 0, bio.bioFlags);
        }
    }

    /**
     * fs/btrfs/extent_io.c: {@code end_bio_extent_readpage(bio)} (v5.10): for each page of the bio
     * ({@code bio_for_each_segment_all}: btrfs owns it), with {@code offset} running over the bio's
     * bytes: verify the checksum of a good read; hand a bad block to read repair
     * ({@link ReadRepair#btrfsSubmitReadRepair}), which then owns the page, else mark it uptodate
     * (zeroing past {@code i_size}) or in error, and unlock it; then put the bio.
     */
    static final BioEndIo END_BIO_EXTENT_READPAGE = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            endBioExtentReadpage(bio);
        }

        @Override
        public String toString() {
            return "end_bio_extent_readpage";
        }
    };

    static void endBioExtentReadpage(Bio bio) {
        boolean uptodate = bio.biStatus == BlkTypes.BLK_STS_OK;
        BtrfsIoBio ioBio = BtrfsIoBio.btrfsIoBio(bio);
        long offset = 0;
        Kernel.BUG_ON(Bio.bioFlagged(bio, BlkTypes.BIO_CLONED), "end_bio_extent_readpage on a cloned bio");
        for (BioVec bvec : Bio.bioForEachSegmentAll(bio)) {
            Page page = bvec.bvPage;
            BtrfsInode inode = BtrfsInode.btrfsI(page.mapping.host);
            long start = BtrfsInodeOps.pageOffset(page);
            long end = start + bvec.bvOffset + bvec.bvLen - 1;
            int len = bvec.bvLen;
            int mirror = ioBio.mirrorNum;
            if (uptodate) {
                int ret = BtrfsInodeOps.btrfsVerifyDataCsum(inode, ioBio, offset, page, start, end, mirror);
                if (ret != 0) {
                    uptodate = false;
                } else {
                    ReadRepair.cleanIoFailure(inode, start, page);
                }
            }
            if (!uptodate) {
                /*
                 * btrfs_submit_read_repair() returns 0 when it submitted a repair read, which will end
                 * in this function too; then that read owns the page and we go on with the next one.
                 */
                if (ReadRepair.btrfsSubmitReadRepair(inode, bio, offset, page, (int) (start - BtrfsInodeOps.pageOffset(page)),
                        start, end, mirror) == BlkTypes.BLK_STS_OK) {
                    uptodate = bio.biStatus == BlkTypes.BLK_STS_OK;
                    if (!Kernel.bug(BtrfsBugs.ENDIO_SKIP_OFFSET)) {
                        offset += len;
                    }
                    continue;
                }
            }
            if (uptodate) {
                long iSize = inode.vfsInode.iSizeRead();
                long endIndex = iSize >> Page.PAGE_SHIFT;
                int off = (int) (iSize & (Page.PAGE_SIZE - 1));
                /* Zero out the end if this page straddles i_size */
                if (page.index == endIndex && off != 0) {
                    Arrays.fill(page.data, off, Page.PAGE_SIZE, (byte) 0);
                }
                PageFlags.SetPageUptodate(page);
            } else {
                inode.fsInfo.stats.pageErrors++;
                PageFlags.ClearPageUptodate(page);
                PageFlags.SetPageError(page);
            }
            Filemap.unlockPage(page);
            offset += len;
        }
        BlockBio.bioPut(bio);
    }
}
