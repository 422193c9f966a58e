package kmodel.fs.btrfs;

import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.block.BioVec;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.block.BvecIter;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.atomic.Barriers;
import kmodel.kernel.sched.Completion;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;

/**
 * fs/btrfs/inode.c (v4.13, seed 001 merged; v4.12 for {@code BTRFS_DIO_CLONE=0}), direct I/O:
 * {@code btrfs_direct_IO()} over fs/direct-io.c ({@link FsDirectIo}), {@code btrfs_get_blocks_direct()},
 * {@code btrfs_submit_direct()} and its split at stripe boundaries, the per-piece and whole-dio
 * completions, and direct-read repair from the other RAID1 mirror.
 *
 * <h2>The split ({@code btrfs_submit_direct_hook()})</h2>
 * {@code dip->orig_bio} is {@code btrfs_bio_clone(dio_bio)}. If {@code btrfs_map_block()} says it
 * fits in its stripe it is submitted whole ({@code BTRFS_DIO_ORIG_BIO_SUBMITTED}); otherwise it is
 * cut at every stripe boundary (64 KiB for RAID0 and RAID1 alike):
 * <ul>
 *   <li>(a) v4.12: new bios from {@code btrfs_bio_alloc()}, filled block by block with
 *       {@code bio_add_page()} from {@code orig_bio}'s own table
 *       ({@code bio_for_each_segment_all}: a {@code bio_clone_bioset()} clone owns it) until the
 *       next block would cross the stripe ({@code map_length < submit_len + blocksize}).</li>
 *   <li>(b) v4.13: {@code btrfs_bio_clone_partial(orig_bio, clone_offset, clone_len)}: a fast
 *       clone of {@code orig_bio} trimmed to the window, sharing the table of {@code dio_bio}
 *       (orig_bio is itself a fast clone of it).</li>
 * </ul>
 * Either way each piece carries its file offset ({@code logical}) and {@code iter}; for a read,
 * the first piece submitted looks the checksums of the whole dio up into {@code orig_bio} and every
 * piece points into them ({@code btrfs_lookup_and_bind_dio_csum()}).
 *
 * <h2>{@code pending_bios}</h2>
 * One count is taken before the loop for the first piece; every later piece is counted
 * <em>before</em> the previous one is submitted ("inc the count before we submit the bio so we
 * know the end IO handler won't happen before we inc the count. Otherwise, the dip might get
 * freed before we're done setting it up"); the last piece is submitted after the loop with the
 * count it already has. {@code btrfs_end_dio_bio()} sets {@code dip->errors} before
 * {@code smp_mb__before_atomic()} and {@code atomic_dec_and_test()}; the piece that brings the
 * count to zero completes {@code orig_bio}.
 *
 * <h2>Completion and repair (reads)</h2>
 * Read pieces complete on btrfs' end_io workqueue ({@code btrfs_bio_wq_end_io()}: modelled as a
 * worker task per completed bio, column {@code endio}), because repair sleeps. The piece's end_io
 * restores {@code bi_iter} from the saved {@code iter} ({@code io_bio->bio.bi_iter = io_bio->iter},
 * the block layer consumed it) and walks it with {@code bio_for_each_segment}, sector by sector,
 * never {@code bi_vcnt} or {@code bi_io_vec[0]}: a fast clone has {@code bi_vcnt == 0} and shares
 * a table that starts elsewhere. A sector that failed (checksum mismatch, or the whole piece's
 * I/O error) is re-read alone from the next mirror ({@code dio_read_error()}), synchronously;
 * when no mirror is left the error is recorded and the walk goes on with the next sector ("record
 * error if one block has failed to retry", seed 001 patch 5). With {@code nodatasum} only an I/O
 * error triggers the retry ({@code __btrfs_correct_data_nocsum()}).
 *
 * <h2>Not modelled</h2>
 * Extent locking ({@code lock_extent_direct()}), ordered extents and their completion
 * ({@code __endio_write_update_ordered()}), space reservation, COW writes (a direct write needs a
 * {@code NODATACOW} file and overwrites its regular extents in place, the nocow path of
 * {@code btrfs_get_blocks_direct()}; elsewhere it returns {@code -ENOTBLK}), checksums of writes,
 * compressed and inline extents ({@code -ENOTBLK}), async submission ({@code btrfs_wq_submit_bio()}),
 * {@code repair_io_failure()} (counted), and {@code check_direct_IO()}'s fallback to buffered I/O
 * (an unaligned request returns {@code -EINVAL} here).
 */
public final class DirectIo {
    /** {@code sizeof(struct bio_vec)} on 64-bit: what copying one bvec costs. */
    static final int SIZEOF_BIO_VEC = 16;
    /** fs/btrfs/inode.c: {@code BTRFS_DIO_ORIG_BIO_SUBMITTED}. */
    static final int BTRFS_DIO_ORIG_BIO_SUBMITTED = 0x1;

    private DirectIo() {
    }

    /** fs/btrfs/btrfs_inode.h: {@code struct btrfs_dio_private} (v4.13). */
    static final class BtrfsDioPrivate {
        /** {@code inode}. */
        BtrfsInode inode;
        /** {@code flags}: {@code BTRFS_DIO_ORIG_BIO_SUBMITTED}. */
        int flags;
        /** {@code logical_offset}: file offset of the dio bio. */
        long logicalOffset;
        /** {@code disk_bytenr}. */
        long diskBytenr;
        /** {@code bytes}. */
        long bytes;
        /** {@code private}: the dio bio's {@code bi_private}. */
        Object private_;
        /** {@code pending_bios}: pieces not yet completed. */
        final AtomicT pendingBios;
        /** {@code errors}: set by a failed piece before it drops its count. */
        int errors;
        /** {@code orig_bio}: {@code btrfs_bio_clone(dio_bio)}. */
        Bio origBio;
        /** {@code dio_bio}: fs/direct-io.c's bio, completed with {@code dio_end_io()}. */
        Bio dioBio;
        /** {@code subio_endio}: set for reads ({@code btrfs_subio_endio_read}). */
        boolean subioEndioRead;

        BtrfsDioPrivate(String name) {
            this.pendingBios = new AtomicT(name + ".pending_bios", 0);
        }
    }

    /** fs/btrfs/inode.c: {@code struct btrfs_retry_complete} (v4.13): one sector's repair read. */
    static final class BtrfsRetryComplete {
        /** {@code done}. */
        Completion done;
        /** {@code inode}. */
        BtrfsInode inode;
        /** {@code start}: file offset of the sector. */
        long start;
        /** {@code uptodate}. */
        boolean uptodate;
    }

    // ------------------------------------------------------------------ entry

    /**
     * fs/btrfs/inode.c: {@code btrfs_direct_IO(iocb, iter)} (v4.13): {@code check_direct_IO()}
     * (offset and length block aligned), then {@code __blockdev_direct_IO()} with
     * {@code btrfs_get_blocks_direct()} and {@code btrfs_submit_direct()}. The caller
     * ({@code generic_file_read_iter()} / {@code generic_file_direct_write()}) has flushed and, for
     * a write, invalidated the page cache over the range.
     */
    public static long btrfsDirectIO(Kiocb iocb, IovIter iter, boolean write) {
        BtrfsInode inode = BtrfsInode.btrfsI(iocb.kiFilp.fInode);
        int blocksizeMask = inode.fsInfo.sectorsize - 1;
        if ((iocb.kiPos & blocksizeMask) != 0 || (iter.count & blocksizeMask) != 0) {
            return -Errno.EINVAL;
        }
        if (write && (inode.flags & BtrfsInode.BTRFS_INODE_NODATACOW) == 0) {
            return -Errno.ENOTBLK;
        }
        return FsDirectIo.doBlockdevDirectIO(iocb, inode, iter, write, DirectIo::btrfsGetBlocksDirect,
                DirectIo::btrfsSubmitDirect);
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_get_blocks_direct(inode, iblock, bh_result, create)} (v4.13),
     * reduced: the extent map at {@code start} ({@code btrfs_get_extent()}); compressed and inline
     * extents {@code -ENOTBLK}; a hole or prealloc extent of a read is unmapped (the whole run);
     * a write needs a regular extent of a {@code NODATACOW} inode and overwrites it in place; else
     * mapped at {@code block_start + (start - em->start)} for at most the rest of the extent.
     */
    static int btrfsGetBlocksDirect(BtrfsInode inode, long start, FsDirectIo.MapBh bh, boolean create) {
        long len = bh.bSize;
        ExtentMap em = BtrfsInodeOps.btrfsGetExtent(inode, null, 0, start, len);
        try {
            if (em.test(ExtentMap.EXTENT_FLAG_COMPRESSED) || em.blockStart == ExtentMap.EXTENT_MAP_INLINE) {
                return -Errno.ENOTBLK;
            }
            len = Math.min(len, em.len - (start - em.start));
            bh.bSize = len;
            if (em.blockStart == ExtentMap.EXTENT_MAP_HOLE || em.test(ExtentMap.EXTENT_FLAG_PREALLOC)) {
                if (create) {
                    return -Errno.ENOTBLK; /* allocation is not modelled */
                }
                bh.mapped = false;
                return 0;
            }
            bh.bBlocknr = (em.blockStart + (start - em.start)) >> Page.PAGE_SHIFT;
            bh.mapped = true;
            return 0;
        } finally {
            ExtentMap.freeExtentMap(em);
        }
    }

    // ------------------------------------------------------------------ submission

    /**
     * fs/btrfs/inode.c: {@code btrfs_submit_direct(dio_bio, inode, file_offset)} (v4.13): clone the
     * dio bio ({@code orig_bio}), set up the {@code dip}, and split and submit
     * ({@link #btrfsSubmitDirectHook}).
     */
    static void btrfsSubmitDirect(Bio dioBio, BtrfsInode inode, long fileOffset) {
        boolean write = Bio.bioOp(dioBio) == BlkTypes.REQ_OP_WRITE;
        boolean skipSum = (inode.flags & BtrfsInode.BTRFS_INODE_NODATASUM) != 0;
        inode.fsInfo.stats.dioBios++;
        Bio bio = Volumes.btrfsBioClone(inode.fsInfo, dioBio);
        BtrfsDioPrivate dip = new BtrfsDioPrivate("dip@" + fileOffset);
        dip.private_ = dioBio.biPrivate;
        dip.inode = inode;
        dip.logicalOffset = fileOffset;
        dip.bytes = Integer.toUnsignedLong(dioBio.biIter.biSize);
        dip.diskBytenr = dioBio.biIter.biSector << SECTOR_SHIFT;
        bio.biPrivate = dip;
        dip.origBio = bio;
        dip.dioBio = dioBio;
        dip.pendingBios.set(0);
        BtrfsIoBio ioBio = BtrfsIoBio.btrfsIoBio(bio);
        ioBio.logical = fileOffset;
        if (write) {
            bio.biEndIo = BTRFS_ENDIO_DIRECT_WRITE;
        } else {
            bio.biEndIo = BTRFS_ENDIO_DIRECT_READ;
            dip.subioEndioRead = true;
        }
        btrfsSubmitDirectHook(dip, skipSum);
        /* the hook returns 0 in every path: errors end orig_bio through bio_io_error() */
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_bio_clone_partial(orig, offset, size)} (v4.13): a fast
     * clone of {@code orig} trimmed to bytes {@code [offset, offset + size)} of its data, its
     * {@code iter} saved after the trim.
     */
    static BtrfsIoBio btrfsBioClonePartial(BtrfsFsInfo fsInfo, Bio orig, int offset, int size) {
        BtrfsIoBio bio = (BtrfsIoBio) BlockBio.bioCloneFast(orig, fsInfo.btrfsBioset);
        fsInfo.stats.fastClones++;
        bio.csum = null;
        BlockBio.bioTrim(bio, offset >> SECTOR_SHIFT, size >> SECTOR_SHIFT);
        bio.iter.set(bio.biIter);
        return bio;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_submit_direct_hook(dip, skip_sum)}: v4.13 (seed 001) or v4.12
     * by {@code BTRFS_DIO_CLONE} (see the class notes). Returns 0; a failure to submit a piece
     * marks {@code dip->errors} and drops the count the piece held.
     */
    static int btrfsSubmitDirectHook(BtrfsDioPrivate dip, boolean skipSum) {
        if (Kernel.config().value(BtrfsOptions.BTRFS_DIO_CLONE) == BtrfsOptions.DIO_CLONE_BIOSET) {
            return btrfsSubmitDirectHookV412(dip, skipSum);
        }
        BtrfsInode inode = dip.inode;
        BtrfsFsInfo fsInfo = inode.fsInfo;
        Bio origBio = dip.origBio;
        long startSector = origBio.biIter.biSector;
        long fileOffset = dip.logicalOffset;
        int cloneOffset = 0;
        long submitLen = Integer.toUnsignedLong(origBio.biIter.biSize);
        long[] mapLength = {submitLen};
        if (Volumes.btrfsMapBlock(fsInfo, Volumes.btrfsOp(origBio), startSector << SECTOR_SHIFT, mapLength, 0) == null) {
            return -Errno.EIO;
        }
        Bio bio;
        if (mapLength[0] >= submitLen) {
            bio = origBio;
            dip.flags |= BTRFS_DIO_ORIG_BIO_SUBMITTED;
        } else {
            /* bio split */
            Kernel.BUG_ON(mapLength[0] > Integer.MAX_VALUE, "ASSERT(map_length <= INT_MAX)");
            dip.pendingBios.inc();
            do {
                int cloneLen = (int) Math.min(submitLen, mapLength[0]);
                bio = btrfsBioClonePartial(fsInfo, origBio, cloneOffset, cloneLen);
                bio.biPrivate = dip;
                bio.biEndIo = BTRFS_END_DIO_BIO;
                BtrfsIoBio.btrfsIoBio(bio).logical = fileOffset;
                Kernel.BUG_ON(submitLen < cloneLen, "ASSERT(submit_len >= clone_len)");
                submitLen -= cloneLen;
                if (submitLen == 0) {
                    break;
                }
                /* inc the count before we submit the bio so the end IO handler cannot free the dip */
                boolean late = Kernel.bug(BtrfsBugs.DIO_PENDING_AFTER_SUBMIT);
                if (!late) {
                    dip.pendingBios.inc();
                }
                int status = __btrfsSubmitDioBio(bio, inode, fileOffset, skipSum, true);
                if (late) {
                    dip.pendingBios.inc();
                }
                if (status != BlkTypes.BLK_STS_OK) {
                    BlockBio.bioPut(bio);
                    dip.pendingBios.dec();
                    return outErr(dip);
                }
                cloneOffset += cloneLen;
                startSector += cloneLen >> SECTOR_SHIFT;
                fileOffset += cloneLen;
                mapLength[0] = submitLen;
                if (Volumes.btrfsMapBlock(fsInfo, Volumes.btrfsOp(origBio), startSector << SECTOR_SHIFT, mapLength,
                        0) == null) {
                    return outErr(dip);
                }
            } while (submitLen > 0);
        }
        int status = __btrfsSubmitDioBio(bio, inode, fileOffset, skipSum, true);
        if (status == BlkTypes.BLK_STS_OK) {
            return 0;
        }
        BlockBio.bioPut(bio);
        return outErr(dip);
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_submit_direct_hook(dip, skip_sum)} (v4.12, before seed 001;
     * the per-block loop of 5f4dc8fc835b, v4.6): fill new bios block by block from
     * {@code orig_bio}'s table with {@code bio_add_page()} and submit each when the next block would
     * cross the stripe or the bio is full. {@code btrfs_bio_alloc()} can fail here
     * ({@code BTRFS_BIO_ALLOC_FAIL}): the first one returns {@code -ENOMEM}, a later one ends the
     * dio in error.
     */
    static int btrfsSubmitDirectHookV412(BtrfsDioPrivate dip, boolean skipSum) {
        BtrfsInode inode = dip.inode;
        BtrfsFsInfo fsInfo = inode.fsInfo;
        Bio origBio = dip.origBio;
        long startSector = origBio.biIter.biSector;
        long fileOffset = dip.logicalOffset;
        long submitLen = 0;
        int blocksize = fsInfo.sectorsize;
        long[] mapLength = {Integer.toUnsignedLong(origBio.biIter.biSize)};
        if (Volumes.btrfsMapBlock(fsInfo, Volumes.btrfsOp(origBio), startSector << SECTOR_SHIFT, mapLength, 0) == null) {
            return -Errno.EIO;
        }
        Bio bio;
        if (mapLength[0] >= Integer.toUnsignedLong(origBio.biIter.biSize)) {
            bio = origBio;
            dip.flags |= BTRFS_DIO_ORIG_BIO_SUBMITTED;
        } else {
            bio = btrfsDioBioAlloc(fsInfo, origBio, startSector, dip, fileOffset);
            if (bio == null) {
                return -Errno.ENOMEM;
            }
            dip.pendingBios.inc();
            for (BioVec bvec : Bio.bioForEachSegmentAll(origBio)) {
                int nrSectors = bvec.bvLen / blocksize;
                int i = 0;
                for (;;) { /* next_block: */
                    int vcnt = bio.biVcnt;
                    if (mapLength[0] < submitLen + blocksize
                            || BlockBio.bioAddPage(bio, bvec.bvPage, blocksize, bvec.bvOffset + i * blocksize) < blocksize) {
                        /* inc the count before we submit the bio */
                        boolean late = Kernel.bug(BtrfsBugs.DIO_PENDING_AFTER_SUBMIT);
                        if (!late) {
                            dip.pendingBios.inc();
                        }
                        int status = __btrfsSubmitDioBio(bio, inode, fileOffset, skipSum, true);
                        if (late) {
                            dip.pendingBios.inc();
                        }
                        if (status != BlkTypes.BLK_STS_OK) {
                            BlockBio.bioPut(bio);
                            dip.pendingBios.dec();
                            return outErr(dip);
                        }
                        startSector += submitLen >> SECTOR_SHIFT;
                        fileOffset += submitLen;
                        submitLen = 0;
                        bio = btrfsDioBioAlloc(fsInfo, origBio, startSector, dip, fileOffset);
                        if (bio == null) {
                            return outErr(dip);
                        }
                        mapLength[0] = Integer.toUnsignedLong(origBio.biIter.biSize);
                        if (Volumes.btrfsMapBlock(fsInfo, Volumes.btrfsOp(origBio), startSector << SECTOR_SHIFT,
                                mapLength, 0) == null) {
                            BlockBio.bioPut(bio);
                            return outErr(dip);
                        }
                        continue; /* goto next_block */
                    }
                    fsInfo.stats.bvecBytesCopied += (long) (bio.biVcnt - vcnt) * SIZEOF_BIO_VEC;
                    submitLen += blocksize;
                    if (--nrSectors > 0) {
                        i++;
                        continue;
                    }
                    break;
                }
            }
        }
        int status = __btrfsSubmitDioBio(bio, inode, fileOffset, skipSum, true);
        if (status == BlkTypes.BLK_STS_OK) {
            return 0;
        }
        BlockBio.bioPut(bio);
        return outErr(dip);
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_dio_bio_alloc()} and the set-up that follows it in the v4.12
     * hook: a bio from {@code btrfs_bioset} at {@code startSector}, completing in
     * {@code btrfs_end_dio_bio()}, for the piece at {@code fileOffset}.
     */
    private static Bio btrfsDioBioAlloc(BtrfsFsInfo fsInfo, Bio origBio, long startSector, BtrfsDioPrivate dip,
            long fileOffset) {
        Bio bio = ExtentIo.btrfsBioAlloc(fsInfo, startSector << SECTOR_SHIFT);
        if (bio == null) {
            return null;
        }
        bio.biOpf = origBio.biOpf;
        bio.biPrivate = dip;
        bio.biEndIo = BTRFS_END_DIO_BIO;
        BtrfsIoBio.btrfsIoBio(bio).logical = fileOffset;
        return bio;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_submit_direct_hook()} (v4.13), its {@code out_err:} tail:
     * record the error, {@code smp_mb__before_atomic()}, drop the count of the piece that was not
     * submitted; the last count completes {@code orig_bio} with an error.
     */
    private static int outErr(BtrfsDioPrivate dip) {
        dip.errors = 1;
        /* Before atomic variable goto zero, we must make sure dip->errors is perceived to be set. */
        Barriers.smpMbBeforeAtomic("btrfs_submit_direct_hook");
        if (dip.pendingBios.decAndTest()) {
            Bio.bioIoError(dip.origBio);
        }
        return 0;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_lookup_and_bind_dio_csum(inode, dip, bio, file_offset)}
     * (v4.13): the first piece loads the checksums of the whole dio into {@code orig_bio}; every
     * split piece points at its own part of them.
     */
    static void btrfsLookupAndBindDioCsum(BtrfsInode inode, BtrfsDioPrivate dip, Bio bio, long fileOffset) {
        BtrfsIoBio ioBio = BtrfsIoBio.btrfsIoBio(bio);
        BtrfsIoBio origIoBio = BtrfsIoBio.btrfsIoBio(dip.origBio);
        if (dip.logicalOffset == fileOffset) {
            /* btrfs_lookup_bio_sums_dio(inode, dip->orig_bio, file_offset) */
            BtrfsInodeOps.btrfsLookupBioSums(inode, dip.origBio, null, 0);
        }
        if (bio == dip.origBio) {
            return;
        }
        ioBio.csum = origIoBio.csum;
        ioBio.csumOffset = (int) ((fileOffset - dip.logicalOffset) >> Page.PAGE_SHIFT);
    }

    /**
     * fs/btrfs/inode.c: {@code __btrfs_submit_dio_bio(bio, inode, file_offset, skip_sum,
     * async_submit)} (v4.13): a reference for the submission, the end_io workqueue for reads, the
     * checksums of a read, {@code btrfs_map_bio()}. Returns a {@code BLK_STS_*}.
     */
    static int __btrfsSubmitDioBio(Bio bio, BtrfsInode inode, long fileOffset, boolean skipSum, boolean asyncSubmit) {
        BtrfsDioPrivate dip = (BtrfsDioPrivate) bio.biPrivate;
        boolean write = Bio.bioOp(bio) == BlkTypes.REQ_OP_WRITE;
        int ret;
        Bio.bioGet(bio);
        if (!write) {
            btrfsBioWqEndIo(bio);
        }
        if (!skipSum) {
            Kernel.BUG_ON(write, "__btrfs_submit_dio_bio: checksummed direct writes are not modelled");
            btrfsLookupAndBindDioCsum(inode, dip, bio, fileOffset);
        }
        BtrfsIoBio.btrfsIoBio(bio).iter.set(bio.biIter);
        inode.fsInfo.stats.countDioPiece(fileOffset, bio.biIter.biSector << SECTOR_SHIFT, bio.biIter.biSize,
                bio.biIter.biIdx, bio.biIter.biBvecDone);
        if (Kernel.rt().tracing()) {
            Kernel.event("dio piece %s: file %s, " + bio.biIter.biSize + " bytes at logical %s", bio, fileOffset,
                    bio.biIter.biSector << SECTOR_SHIFT);
        }
        ret = Volumes.btrfsMapBio(inode.fsInfo, bio, 0);
        BlockBio.bioPut(bio);
        return ret;
    }

    // ------------------------------------------------------------------ the end_io workqueue

    /** fs/btrfs/disk-io.c: {@code struct btrfs_end_io_wq}: the bio's own end_io, kept while it is queued. */
    private static final class BtrfsEndIoWq {
        final BioEndIo endIo;
        final Object private_;

        BtrfsEndIoWq(BioEndIo endIo, Object private_) {
            this.endIo = endIo;
            this.private_ = private_;
        }
    }

    /**
     * fs/btrfs/disk-io.c: {@code btrfs_bio_wq_end_io(info, bio, metadata)} (v4.13): the bio will
     * complete through {@link #END_WORKQUEUE_BIO}, which runs its end_io in process context.
     */
    static void btrfsBioWqEndIo(Bio bio) {
        bio.biPrivate = new BtrfsEndIoWq(bio.biEndIo, bio.biPrivate);
        bio.biEndIo = END_WORKQUEUE_BIO;
    }

    /**
     * fs/btrfs/disk-io.c: {@code end_workqueue_bio(bio)} then {@code end_workqueue_fn(work)}
     * (v4.13): queue the completion on the endio workers; the worker restores the bio's end_io and
     * private and ends it again. The model's worker is a task of its own per completed bio.
     */
    static final BioEndIo END_WORKQUEUE_BIO = new BioEndIo() {
        @Override
        public void endIo(final Bio bio) {
            final BtrfsEndIoWq wq = (BtrfsEndIoWq) bio.biPrivate;
            Kernel.rt().spawn("endio:" + bio.name(), "endio", false, false, new Runnable() {
                @Override
                public void run() {
                    bio.biPrivate = wq.private_;
                    bio.biEndIo = wq.endIo;
                    BlockBio.bioEndio(bio);
                }
            });
        }

        @Override
        public String toString() {
            return "end_workqueue_bio";
        }
    };

    // ------------------------------------------------------------------ completion

    /**
     * fs/btrfs/inode.c: {@code btrfs_end_dio_bio(bio)} (v4.13), a split piece's completion: the
     * read check and repair ({@code dip->subio_endio}), {@code dip->errors}, and the last piece
     * completes {@code orig_bio}; the piece is put.
     */
    static final BioEndIo BTRFS_END_DIO_BIO = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            BtrfsDioPrivate dip = (BtrfsDioPrivate) bio.biPrivate;
            int err = bio.biStatus;
            if (dip.subioEndioRead) {
                err = btrfsSubioEndioRead(dip.inode, BtrfsIoBio.btrfsIoBio(bio), err);
            }
            if (err != BlkTypes.BLK_STS_OK) {
                dip.errors = 1;
                /* Before atomic variable goto zero, we must make sure dip->errors is perceived to be set. */
                Barriers.smpMbBeforeAtomic("btrfs_end_dio_bio");
            }
            if (dip.pendingBios.decAndTest()) {
                if (dip.errors != 0) {
                    Bio.bioIoError(dip.origBio);
                } else {
                    dip.dioBio.biStatus = BlkTypes.BLK_STS_OK;
                    BlockBio.bioEndio(dip.origBio);
                }
            }
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "btrfs_end_dio_bio";
        }
    };

    /**
     * fs/btrfs/inode.c: {@code btrfs_endio_direct_read(bio)} (v4.13), {@code orig_bio}'s
     * completion: check and repair it here if it was submitted whole, then complete the dio bio
     * with the status ({@code dio_end_io()}) and put {@code orig_bio}.
     */
    static final BioEndIo BTRFS_ENDIO_DIRECT_READ = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            BtrfsDioPrivate dip = (BtrfsDioPrivate) bio.biPrivate;
            BtrfsInode inode = dip.inode;
            BtrfsIoBio ioBio = BtrfsIoBio.btrfsIoBio(bio);
            int err = bio.biStatus;
            if ((dip.flags & BTRFS_DIO_ORIG_BIO_SUBMITTED) != 0) {
                err = btrfsSubioEndioRead(inode, ioBio, err);
            }
            Bio dioBio = dip.dioBio;
            dioBio.biStatus = err;
            dioBio.biPrivate = dip.private_;
            FsDirectIo.dioEndIo(dioBio);
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "btrfs_endio_direct_read";
        }
    };

    /**
     * fs/btrfs/inode.c: {@code btrfs_endio_direct_write(bio)} (v4.13): (ordered-extent completion
     * not modelled) complete the dio bio with the status and put {@code orig_bio}.
     */
    static final BioEndIo BTRFS_ENDIO_DIRECT_WRITE = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            BtrfsDioPrivate dip = (BtrfsDioPrivate) bio.biPrivate;
            Bio dioBio = dip.dioBio;
            dioBio.biStatus = bio.biStatus;
            dioBio.biPrivate = dip.private_;
            FsDirectIo.dioEndIo(dioBio);
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "btrfs_endio_direct_write";
        }
    };

    /**
     * fs/btrfs/inode.c: {@code btrfs_subio_endio_read(inode, io_bio, err)} (v4.13): with
     * {@code NODATASUM}, retry only after an I/O error; else check every sector.
     */
    static int btrfsSubioEndioRead(BtrfsInode inode, BtrfsIoBio ioBio, int err) {
        boolean skipCsum = (inode.flags & BtrfsInode.BTRFS_INODE_NODATASUM) != 0;
        if (skipCsum) {
            if (err != BlkTypes.BLK_STS_OK) {
                return __btrfsCorrectDataNocsum(inode, ioBio);
            }
            return BlkTypes.BLK_STS_OK;
        }
        return __btrfsSubioEndioRead(inode, ioBio, err);
    }

    /**
     * fs/btrfs/inode.c: {@code __btrfs_subio_endio_read(inode, io_bio, err)} (v4.13): walk the
     * piece from its saved {@code iter}, sector by sector ({@code offset} and {@code start} running),
     * verify each sector's checksum ({@code __readpage_endio_check()}) unless the piece failed as a
     * whole, and repair a bad one from the next mirror, waiting for each repair read; a sector that
     * no mirror repairs is recorded in the returned status and the walk goes on.
     */
    static int __btrfsSubioEndioRead(BtrfsInode inode, BtrfsIoBio ioBio, int err) {
        int sectorsize = inode.fsInfo.sectorsize;
        boolean uptodate = err == BlkTypes.BLK_STS_OK;
        err = BlkTypes.BLK_STS_OK;
        long start = ioBio.logical;
        long offset = 0;
        BtrfsRetryComplete done = new BtrfsRetryComplete();
        done.inode = inode;
        ioBio.biIter.set(ioBio.iter);
        BvecIter iter = new BvecIter();
        for (BioVec bvec : Bio.bioForEachSegment(ioBio, iter)) {
            int nrSectors = bvec.bvLen / sectorsize;
            int pgoff = bvec.bvOffset;
            for (;;) { /* next_block: */
                boolean good = false;
                if (uptodate) {
                    int csumPos = (int) (offset / sectorsize);
                    good = readpageEndioCheck(inode, ioBio, csumPos, bvec.bvPage, pgoff, start, sectorsize) == 0;
                }
                while (!good) { /* try_again: */
                    done.uptodate = false;
                    done.start = start;
                    done.done = new Completion("retry@" + start);
                    int status = dioReadError(inode, ioBio, bvec.bvPage, pgoff, start, start + sectorsize - 1,
                            ioBio.mirrorNum, BTRFS_RETRY_ENDIO, done);
                    if (status != BlkTypes.BLK_STS_OK) {
                        if (Kernel.bug(BtrfsBugs.DIO_REPAIR_EARLY_RETURN)) {
                            return status;
                        }
                        err = status;
                        break; /* goto next */
                    }
                    Completion.waitForCompletionIo(done.done);
                    good = done.uptodate; /* we might have another mirror, so try again */
                }
                /* next: */
                offset += sectorsize;
                start += sectorsize;
                Kernel.BUG_ON(nrSectors == 0, "ASSERT(nr_sectors)");
                if (--nrSectors == 0) {
                    break;
                }
                pgoff += sectorsize;
                Kernel.BUG_ON(pgoff >= Page.PAGE_SIZE, "ASSERT(pgoff < PAGE_SIZE)");
            }
        }
        return err;
    }

    /**
     * fs/btrfs/inode.c: {@code __btrfs_correct_data_nocsum(inode, io_bio)} (v4.13): after an I/O
     * error of a {@code NODATASUM} piece, re-read every sector of it from the next mirror, waiting
     * for each; a sector that no mirror gives is recorded and the walk goes on (seed 001 patch 5).
     */
    static int __btrfsCorrectDataNocsum(BtrfsInode inode, BtrfsIoBio ioBio) {
        int sectorsize = inode.fsInfo.sectorsize;
        int err = BlkTypes.BLK_STS_OK;
        long start = ioBio.logical;
        BtrfsRetryComplete done = new BtrfsRetryComplete();
        done.inode = inode;
        ioBio.biIter.set(ioBio.iter);
        BvecIter iter = new BvecIter();
        for (BioVec bvec : Bio.bioForEachSegment(ioBio, iter)) {
            int nrSectors = bvec.bvLen / sectorsize;
            int pgoff = bvec.bvOffset;
            for (;;) { /* next_block_or_try_again: */
                done.uptodate = false;
                done.start = start;
                done.done = new Completion("retry@" + start);
                int ret = dioReadError(inode, ioBio, bvec.bvPage, pgoff, start, start + sectorsize - 1, ioBio.mirrorNum,
                        BTRFS_RETRY_ENDIO_NOCSUM, done);
                if (ret != BlkTypes.BLK_STS_OK) {
                    if (Kernel.bug(BtrfsBugs.DIO_REPAIR_EARLY_RETURN)) {
                        return ret;
                    }
                    err = ret;
                } else {
                    Completion.waitForCompletionIo(done.done);
                    if (!done.uptodate) {
                        continue; /* we might have another mirror, so try again */
                    }
                }
                /* next: */
                start += sectorsize;
                if (--nrSectors == 0) {
                    break;
                }
                pgoff += sectorsize;
                Kernel.BUG_ON(pgoff >= Page.PAGE_SIZE, "ASSERT(pgoff < PAGE_SIZE)");
            }
        }
        return err;
    }

    /**
     * fs/btrfs/inode.c: {@code __readpage_endio_check(inode, io_bio, icsum, page, pgoff, start,
     * len)} (v4.13): the sector's crc32c against {@code io_bio->csum[icsum]} (which a split piece
     * points into its original's array); a mismatch fills the sector with 1s, {@code -EIO}.
     */
    static int readpageEndioCheck(BtrfsInode inode, BtrfsIoBio ioBio, int icsum, Page page, int pgoff, long start,
            int len) {
        return BtrfsInodeOps.checkDataCsum(inode, ioBio, ioBio.csumOffset + icsum, page, pgoff, start, len);
    }

    // ------------------------------------------------------------------ repair

    /**
     * fs/btrfs/inode.c: {@code btrfs_check_dio_repairable(inode, failed_bio, failrec,
     * failed_mirror)} (v4.13): the next mirror ({@code this_mirror++}, skipping
     * {@code failed_mirror}); false when there is one copy or none is left.
     */
    static boolean btrfsCheckDioRepairable(BtrfsInode inode, IoFailureRecord failrec, int failedMirror) {
        int numCopies = Volumes.btrfsNumCopies(inode.fsInfo, failrec.logical, failrec.len);
        if (numCopies == 1) {
            return false;
        }
        failrec.failedMirror = failedMirror;
        failrec.thisMirror++;
        if (failrec.thisMirror == failedMirror) {
            failrec.thisMirror++;
        }
        if (failrec.thisMirror > numCopies) {
            Kernel.event("check_dio_repairable: (fail) num_copies=%s, next_mirror %s, failed_mirror %s", numCopies,
                    failrec.thisMirror, failedMirror);
            return false;
        }
        return true;
    }

    /**
     * fs/btrfs/inode.c: {@code dio_read_error(inode, failed_bio, page, pgoff, start, end,
     * failed_mirror, repair_endio, repair_arg)} (v4.13): the sector's failure record, the next
     * mirror, and a one-sector repair read of it ({@code REQ_FAILFAST_DEV} when the failed bio had
     * more than one segment or a first segment longer than a sector, judged from its iterator:
     * {@code bio_segments()}, {@code bio_get_first_bvec()}). Returns {@code BLK_STS_OK} when the
     * repair read was submitted; otherwise frees the record.
     */
    static int dioReadError(BtrfsInode inode, BtrfsIoBio failedBio, Page page, int pgoff, long start, long end,
            int failedMirror, BioEndIo repairEndio, BtrfsRetryComplete repairArg) {
        Kernel.BUG_ON(Bio.bioOp(failedBio) == BlkTypes.REQ_OP_WRITE, "dio_read_error on a write");
        IoFailureRecord failrec = ReadRepair.btrfsGetIoFailureRecord(inode, start, end);
        if (!btrfsCheckDioRepairable(inode, failrec, failedMirror)) {
            ReadRepair.freeIoFailure(inode, failrec);
            inode.fsInfo.stats.dioRepairFailures++;
            return BlkTypes.BLK_STS_IOERR;
        }
        long readMode = 0;
        int sectorsize = inode.fsInfo.sectorsize;
        if (Kernel.bug(BtrfsBugs.CLONE_FIRST_BVEC)) {
            /* v4.12: failed_bio->bi_vcnt > 1 || failed_bio->bi_io_vec->bv_len > sectorsize */
            if (failedBio.biVcnt > 1 || Bio.bioFirstBvecAll(failedBio).bvLen > sectorsize) {
                readMode |= BlkTypes.REQ_FAILFAST_DEV;
            }
        } else {
            int segs = Bio.bioSegments(failedBio);
            BioVec bvec = Bio.bioIovec(failedBio); /* bio_get_first_bvec() */
            if (segs > 1 || bvec.bvLen > sectorsize) {
                readMode |= BlkTypes.REQ_FAILFAST_DEV;
            }
        }
        int isector = (int) ((start - failedBio.logical) >> Page.PAGE_SHIFT);
        Bio bio = btrfsCreateRepairBio(inode, failedBio, failrec, page, pgoff, isector, repairEndio, repairArg);
        Bio.bioSetOpAttrs(bio, BlkTypes.REQ_OP_READ, readMode);
        inode.fsInfo.stats.dioRepairs++;
        Kernel.event("dio repair read of %s from mirror %s", start, failrec.thisMirror);
        int status = submitDioRepairBio(inode, bio, failrec.thisMirror);
        if (status != BlkTypes.BLK_STS_OK) {
            ReadRepair.freeIoFailure(inode, failrec);
            BlockBio.bioPut(bio);
        }
        return status;
    }

    /**
     * fs/btrfs/extent_io.c: {@code btrfs_create_repair_bio(inode, failed_bio, failrec, page,
     * pg_offset, icsum, endio_func, data)} (v4.13): a one-page bio at the record's logical address
     * with the sector's checksum copied from the failed bio.
     */
    static Bio btrfsCreateRepairBio(BtrfsInode inode, BtrfsIoBio failedBio, IoFailureRecord failrec, Page page,
            int pgOffset, int icsum, BioEndIo endioFunc, Object data) {
        Bio bio = BlockBio.bioAllocBioset(1, inode.fsInfo.btrfsBioset);
        bio.biEndIo = endioFunc;
        bio.biIter.biSector = failrec.logical >> SECTOR_SHIFT;
        Bio.bioSetDev(bio, inode.fsInfo.devices[0].bdev);
        bio.biIter.biSize = 0;
        bio.biPrivate = data;
        if (failedBio.csum != null) {
            BtrfsIoBio.btrfsIoBio(bio).csum = new int[] {failedBio.csum[failedBio.csumOffset + icsum]};
        }
        BlockBio.bioAddPage(bio, page, (int) failrec.len, pgOffset);
        return bio;
    }

    /**
     * fs/btrfs/inode.c: {@code submit_dio_repair_bio(inode, bio, mirror_num)} (v4.13): through the
     * end_io workqueue, to {@code mirror_num}.
     */
    static int submitDioRepairBio(BtrfsInode inode, Bio bio, int mirrorNum) {
        Kernel.BUG_ON(Bio.bioOp(bio) == BlkTypes.REQ_OP_WRITE, "submit_dio_repair_bio on a write");
        Bio.bioGet(bio);
        btrfsBioWqEndIo(bio);
        BtrfsIoBio.btrfsIoBio(bio).iter.set(bio.biIter);
        int ret = Volumes.btrfsMapBio(inode.fsInfo, bio, mirrorNum);
        BlockBio.bioPut(bio);
        return ret;
    }

    /**
     * fs/btrfs/inode.c: {@code btrfs_retry_endio(bio)} (v4.13): a repair read completed; verify its
     * one sector ({@code bio_for_each_segment_all}: the repair bio owns its table), clean the
     * failure record if good, tell the waiter, put the bio.
     */
    static final BioEndIo BTRFS_RETRY_ENDIO = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            BtrfsRetryComplete done = (BtrfsRetryComplete) bio.biPrivate;
            BtrfsIoBio ioBio = BtrfsIoBio.btrfsIoBio(bio);
            BtrfsInode inode = done.inode;
            if (bio.biStatus == BlkTypes.BLK_STS_OK) {
                boolean uptodate = true;
                Kernel.BUG_ON(bio.biVcnt != 1, "ASSERT(bio->bi_vcnt == 1)");
                int i = 0;
                for (BioVec bvec : Bio.bioForEachSegmentAll(bio)) {
                    if (readpageEndioCheck(inode, ioBio, i, bvec.bvPage, bvec.bvOffset, done.start, bvec.bvLen) == 0) {
                        ReadRepair.cleanIoFailure(inode, done.start, bvec.bvPage);
                    } else {
                        uptodate = false;
                    }
                    i++;
                }
                done.uptodate = uptodate;
            }
            Completion.complete(done.done);
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "btrfs_retry_endio";
        }
    };

    /**
     * fs/btrfs/inode.c: {@code btrfs_retry_endio_nocsum(bio)} (v4.13): a repair read of a
     * {@code NODATASUM} sector completed: good if it read without error.
     */
    static final BioEndIo BTRFS_RETRY_ENDIO_NOCSUM = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            BtrfsRetryComplete done = (BtrfsRetryComplete) bio.biPrivate;
            if (bio.biStatus == BlkTypes.BLK_STS_OK) {
                Kernel.BUG_ON(bio.biVcnt != 1, "ASSERT(bio->bi_vcnt == 1)");
                done.uptodate = true;
                for (BioVec bvec : Bio.bioForEachSegmentAll(bio)) {
                    ReadRepair.cleanIoFailure(done.inode, done.start, bvec.bvPage);
                }
            }
            Completion.complete(done.done);
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "btrfs_retry_endio_nocsum";
        }
    };
}
