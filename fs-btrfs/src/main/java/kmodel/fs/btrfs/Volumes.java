package kmodel.fs.btrfs;

import static kmodel.block.BlkTypes.SECTOR_SHIFT;
import static kmodel.fs.btrfs.MapLookup.BTRFS_BLOCK_GROUP_PROFILE_MASK;
import static kmodel.fs.btrfs.MapLookup.BTRFS_BLOCK_GROUP_RAID0;
import static kmodel.fs.btrfs.MapLookup.BTRFS_BLOCK_GROUP_RAID1;

import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.block.BlkCore;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.Sched;

/**
 * fs/btrfs/volumes.c (v5.10): mapping logical addresses to stripes and sending bios to the devices,
 * for the SINGLE, RAID0 and RAID1 profiles of one data chunk.
 *
 * <h2>Implementation notes</h2>
 * <ul>
 *   <li>A btrfs bio carries a <em>logical</em> address in {@code bi_iter.bi_sector} until
 *       {@link #btrfsMapBio} maps it: each stripe bio gets its device and physical sector
 *       ({@code submit_stripe_bio()}). The caller must not build a bio that crosses a stripe
 *       boundary ({@code btrfs_bio_fits_in_stripe()}); {@code btrfs_map_bio()} {@code BUG()}s if it
 *       does.</li>
 *   <li>Writes go to every stripe of a RAID1 chunk: the bio is cloned ({@code btrfs_bio_clone()},
 *       a fast clone whose {@code iter} is saved) for all but the last stripe. Reads go to one
 *       mirror: {@code mirror_num} if the caller asks for one, else {@code find_live_mirror()}:
 *       {@code current->pid % num_stripes} (the task's id here).</li>
 *   <li>Not modelled: RAID10/5/6, DUP, device replace, missing devices, the bio counter
 *       ({@code btrfs_bio_counter_inc_blocked()}), the integrity checker
 *       ({@code btrfsic_submit_bio()} is {@code submit_bio()}).</li>
 * </ul>
 */
public final class Volumes {
    /** fs/btrfs/volumes.h: {@code enum btrfs_map_op}: {@code BTRFS_MAP_READ}. */
    public static final int BTRFS_MAP_READ = 0;
    /** {@code BTRFS_MAP_WRITE}. */
    public static final int BTRFS_MAP_WRITE = 1;

    private Volumes() {
    }

    /** fs/btrfs/volumes.h: {@code struct btrfs_io_geometry} (v5.10). */
    public static final class BtrfsIoGeometry {
        /** {@code len}: bytes that can be issued from the address without crossing a stripe. */
        public long len;
        /** {@code offset}: offset of the address in the chunk. */
        public long offset;
        /** {@code stripe_len}. */
        public long stripeLen;
        /** {@code stripe_nr}: the stripe the address falls in. */
        public long stripeNr;
        /** {@code stripe_offset}: offset of the address in that stripe. */
        public long stripeOffset;
    }

    /** fs/btrfs/volumes.c: {@code btrfs_op(bio)}: read or write. */
    static int btrfsOp(Bio bio) {
        return BlkTypes.opIsWrite(Bio.bioOp(bio)) ? BTRFS_MAP_WRITE : BTRFS_MAP_READ;
    }

    /** fs/btrfs/volumes.c: {@code need_full_stripe(op)}: writes go to every copy. */
    static boolean needFullStripe(int op) {
        return op == BTRFS_MAP_WRITE;
    }

    /**
     * fs/btrfs/volumes.c: {@code btrfs_get_chunk_map(fs_info, logical, length)} (v5.10): the chunk
     * holding {@code logical}; {@code -EINVAL} ({@code BUG_ON} here) outside it.
     */
    static MapLookup btrfsGetChunkMap(BtrfsFsInfo fsInfo, long logical, long length) {
        MapLookup map = fsInfo.chunk;
        Kernel.BUG_ON(logical < map.start || logical + length > map.start + map.len,
                "btrfs_get_chunk_map: logical " + logical + " len " + length + " outside the chunk");
        return map;
    }

    /**
     * fs/btrfs/volumes.c: {@code btrfs_get_io_geometry()} (v5.10): where {@code logical} falls in
     * its chunk and how far an I/O may go from there: to the end of its stripe for a profile with a
     * profile bit (RAID0 and RAID1 alike), to the end of the chunk for SINGLE.
     */
    public static BtrfsIoGeometry btrfsGetIoGeometry(MapLookup map, int op, long logical, long len) {
        BtrfsIoGeometry g = new BtrfsIoGeometry();
        long offset = logical - map.start;
        long stripeLen = map.stripeLen;
        long stripeNr = offset / stripeLen;
        long stripeOffset = offset - stripeNr * stripeLen;
        if ((map.type & BTRFS_BLOCK_GROUP_PROFILE_MASK) != 0) {
            long maxLen = stripeLen - stripeOffset;
            len = Math.min(map.len - offset, maxLen);
        } else {
            len = map.len - offset;
        }
        g.len = len;
        g.offset = offset;
        g.stripeLen = stripeLen;
        g.stripeNr = stripeNr;
        g.stripeOffset = stripeOffset;
        return g;
    }

    /** fs/btrfs/volumes.c: {@code btrfs_num_copies(fs_info, logical, len)} (v5.10): RAID1 2, else 1. */
    public static int btrfsNumCopies(BtrfsFsInfo fsInfo, long logical, long len) {
        MapLookup map = btrfsGetChunkMap(fsInfo, logical, len);
        return (map.type & BTRFS_BLOCK_GROUP_RAID1) != 0 ? map.numStripes : 1;
    }

    /**
     * fs/btrfs/volumes.c: {@code find_live_mirror(fs_info, map, first, dev_replace_is_ongoing)}
     * (v5.10): {@code first + current->pid % num_stripes}; every device is live in the model.
     */
    static int findLiveMirror(MapLookup map, int first) {
        int pid = Sched.current() != null ? Sched.current().id() : 0;
        return first + pid % map.numStripes;
    }

    /**
     * fs/btrfs/volumes.c: {@code __btrfs_map_block(fs_info, op, logical, &length, &bbio,
     * mirror_num, need_raid_map)} (v5.10) for SINGLE, RAID0 and RAID1: trims {@code length[0]} to
     * the stripe ({@link #btrfsGetIoGeometry}) and returns the stripes to use: every copy for a
     * write, one for a read ({@code mirror_num}, or {@link #findLiveMirror}). Returns null with
     * {@code -EINVAL} semantics when {@code mirror_num} names no copy.
     */
    public static BtrfsBio btrfsMapBlock(BtrfsFsInfo fsInfo, int op, long logical, long[] length, int mirrorNum) {
        MapLookup map = btrfsGetChunkMap(fsInfo, logical, length[0]);
        BtrfsIoGeometry geom = btrfsGetIoGeometry(map, op, logical, length[0]);
        length[0] = geom.len;
        long stripeNr = geom.stripeNr;
        long stripeOffset = geom.stripeOffset;
        int stripeIndex = 0;
        int numStripes = 1;
        int maxErrors = 0;
        if ((map.type & BTRFS_BLOCK_GROUP_RAID0) != 0) {
            stripeIndex = (int) (stripeNr % map.numStripes);
            stripeNr = stripeNr / map.numStripes;
            if (!needFullStripe(op)) {
                mirrorNum = 1;
            }
        } else if ((map.type & BTRFS_BLOCK_GROUP_RAID1) != 0) {
            if (needFullStripe(op)) {
                numStripes = map.numStripes;
            } else if (mirrorNum != 0) {
                stripeIndex = mirrorNum - 1;
            } else {
                stripeIndex = findLiveMirror(map, 0);
                mirrorNum = stripeIndex + 1;
            }
        } else {
            /* SINGLE: stripe_nr counts stripes on this device; stripe_index is 0 */
            stripeIndex = (int) (stripeNr % map.numStripes);
            stripeNr = stripeNr / map.numStripes;
            mirrorNum = stripeIndex + 1;
        }
        if (stripeIndex >= map.numStripes) {
            Kernel.event("__btrfs_map_block: stripe index %s >= %s: -EINVAL", stripeIndex, map.numStripes);
            return null;
        }
        BtrfsBio bbio = new BtrfsBio("bbio@" + logical, numStripes);
        for (int i = 0; i < numStripes; i++) {
            bbio.physical[i] = map.physical[stripeIndex] + stripeOffset + stripeNr * map.stripeLen;
            bbio.dev[i] = map.dev[stripeIndex];
            stripeIndex++;
        }
        if (needFullStripe(op) && (map.type & BTRFS_BLOCK_GROUP_RAID1) != 0) {
            maxErrors = 1; /* btrfs_chunk_max_errors() */
        }
        bbio.mapType = map.type;
        bbio.numStripes = numStripes;
        bbio.maxErrors = maxErrors;
        bbio.mirrorNum = mirrorNum;
        return bbio;
    }

    /**
     * fs/btrfs/volumes.c: {@code btrfs_bio_clone(bio)} (v5.10; extent_io.c in v4.13): a fast clone
     * from {@code btrfs_bioset} that saves the source's {@code bi_iter} in its {@code iter}. With
     * {@code BTRFS_DIO_CLONE=0} the v4.12 form, before seed 001: {@code bio_clone_bioset()}, a copy
     * of the source's bvecs in a table of its own (v4.12 had no {@code iter} field; the model saves
     * it in both forms, and v4.12's walks over the clone's own table see the same bvecs).
     */
    public static BtrfsIoBio btrfsBioClone(BtrfsFsInfo fsInfo, Bio bio) {
        BtrfsIoBio clone;
        if (Kernel.config().value(BtrfsOptions.BTRFS_DIO_CLONE) == BtrfsOptions.DIO_CLONE_BIOSET) {
            clone = (BtrfsIoBio) BlockBio.bioCloneBioset(bio, fsInfo.btrfsBioset);
            fsInfo.stats.biosetClones++;
            fsInfo.stats.bvecBytesCopied += (long) clone.biVcnt * DirectIo.SIZEOF_BIO_VEC;
        } else {
            clone = (BtrfsIoBio) BlockBio.bioCloneFast(bio, fsInfo.btrfsBioset);
            fsInfo.stats.fastClones++;
        }
        clone.iter.set(bio.biIter);
        return clone;
    }

    /**
     * fs/btrfs/volumes.c: {@code submit_stripe_bio(bbio, bio, physical, dev)} (v5.10): point the bio
     * at the device and physical sector, complete through {@link #BTRFS_END_BIO}, submit.
     */
    static void submitStripeBio(BtrfsFsInfo fsInfo, BtrfsBio bbio, Bio bio, long physical, BtrfsDevice dev, int index) {
        bio.biPrivate = bbio;
        BtrfsIoBio.btrfsIoBio(bio).device = dev;
        BtrfsIoBio.btrfsIoBio(bio).stripeIndex = index;
        bio.biEndIo = BTRFS_END_BIO;
        bio.biIter.biSector = physical >> SECTOR_SHIFT;
        Bio.bioSetDev(bio, dev.bdev);
        fsInfo.stats.stripeBios++;
        BlkCore.submitBio(bio);
    }

    /**
     * fs/btrfs/volumes.c: {@code btrfs_map_bio(fs_info, bio, mirror_num)} (v5.10): map the bio's
     * logical range ({@code BUG()} if it crosses a stripe: "mapping failed"), then send one bio per
     * stripe: clones for all but the last, the bio itself last. Returns a {@code BLK_STS_*}.
     */
    public static int btrfsMapBio(BtrfsFsInfo fsInfo, Bio bio, int mirrorNum) {
        long logical = bio.biIter.biSector << SECTOR_SHIFT;
        long length = Integer.toUnsignedLong(bio.biIter.biSize);
        long[] mapLength = {length};
        BtrfsBio bbio = btrfsMapBlock(fsInfo, btrfsOp(bio), logical, mapLength, mirrorNum);
        if (bbio == null) {
            return BlkTypes.BLK_STS_IOERR; /* errno_to_blk_status(-EINVAL) */
        }
        int totalDevs = bbio.numStripes;
        bbio.origBio = bio;
        bbio.private_ = bio.biPrivate;
        bbio.endIo = bio.biEndIo;
        bbio.stripesPending.set(bbio.numStripes);
        Kernel.BUG_ON(mapLength[0] < length, "btrfs_map_bio: mapping failed logical " + logical + " bio len " + length
                + " len " + mapLength[0]);
        for (int devNr = 0; devNr < totalDevs; devNr++) {
            Bio b = devNr < totalDevs - 1 ? btrfsBioClone(fsInfo, bio) : bio;
            submitStripeBio(fsInfo, bbio, b, bbio.physical[devNr], bbio.dev[devNr], devNr);
        }
        return BlkTypes.BLK_STS_OK;
    }

    /**
     * fs/btrfs/volumes.c: {@code btrfs_end_bio()} (v5.10), each stripe bio's completion: count an
     * error; the last one completes the original bio ({@code btrfs_end_bbio()}: restore its
     * {@code bi_private}/{@code bi_end_io}, set {@code mirror_num}, fail it only beyond
     * {@code max_errors}); clones are put.
     */
    static final BioEndIo BTRFS_END_BIO = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            BtrfsBio bbio = (BtrfsBio) bio.biPrivate;
            if (bio.biStatus != BlkTypes.BLK_STS_OK) {
                bbio.error.inc();
            }
            boolean isOrigBio = bio == bbio.origBio;
            if (bbio.stripesPending.decAndTest()) {
                if (!isOrigBio) {
                    BlockBio.bioPut(bio);
                    bio = bbio.origBio;
                }
                BtrfsIoBio.btrfsIoBio(bio).mirrorNum = bbio.mirrorNum;
                /* only send an error to the higher layers if it is beyond the tolerance of the btrfs bio */
                bio.biStatus = bbio.error.read() > bbio.maxErrors ? BlkTypes.BLK_STS_IOERR : BlkTypes.BLK_STS_OK;
                /* btrfs_end_bbio() */
                bio.biPrivate = bbio.private_;
                bio.biEndIo = bbio.endIo;
                BlockBio.bioEndio(bio);
            } else if (!isOrigBio) {
                BlockBio.bioPut(bio);
            }
        }

        @Override
        public String toString() {
            return "btrfs_end_bio";
        }
    };

    /** An errno as a {@code blk_status_t} for the model's few failure paths. */
    static int errnoToBlkStatus(int errno) {
        return errno == 0 ? BlkTypes.BLK_STS_OK : errno == -Errno.ENOMEM ? BlkTypes.BLK_STS_RESOURCE : BlkTypes.BLK_STS_IOERR;
    }
}
