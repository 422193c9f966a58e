package kmodel.fs.btrfs;

import static kmodel.block.BlkTypes.SECTOR_SHIFT;

import java.util.Arrays;
import kmodel.block.Bio;
import kmodel.block.BioEndIo;
import kmodel.block.BioVec;
import kmodel.block.BlkTypes;
import kmodel.block.BlockBio;
import kmodel.kernel.Kernel;
import kmodel.kernel.atomic.AtomicT;
import kmodel.kernel.locking.Spinlock;
import kmodel.mm.Page;
import kmodel.mm.PageCache;

/**
 * fs/btrfs/compression.c (v5.10), the read side: {@code btrfs_submit_compressed_read()} reads a
 * compressed extent's disk bytes into pages of its own and, when the last of those reads ends
 * ({@code end_compressed_bio_read()}), verifies their checksums, decompresses into the page-cache
 * pages of the original bio, marks them {@code PG_checked} and completes the original bio.
 *
 * <p><b>Not zlib.</b> A simple deterministic transform stands in for the compressor: an extent of
 * {@code 2n} bytes is stored as {@code n} bytes, and byte {@code i} of the decompressed data is
 * {@code in[i / 2]} for even {@code i} and {@code in[i / 2] ^ 0x5a} for odd {@code i}
 * ({@link #decompress}). What matters to the model is that a read of a compressed extent reads its
 * disk bytes and fills the page-cache pages by decompressing, at offsets relative to
 * {@code em->orig_start}.
 *
 * <p>Not modelled: {@code add_ra_bio_pages()} (extra page-cache pages added to the original bio),
 * read repair of compressed extents (a failed compressed read ends the pages in error).
 */
public final class Compression {
    private Compression() {
    }

    /** fs/btrfs/compression.h: {@code struct compressed_bio} (v5.10). */
    static final class CompressedBio {
        /** {@code pending_bios}. */
        final AtomicT pendingBios;
        /** {@code compressed_pages}. */
        Page[] compressedPages;
        /** {@code nr_pages}. */
        int nrPages;
        /** {@code inode}. */
        BtrfsInode inode;
        /** {@code start}: file offset of decompressed byte 0 ({@code em->orig_start}). */
        long start;
        /** {@code len}: bytes of the original bio. */
        long len;
        /** {@code compressed_len}. */
        long compressedLen;
        /** {@code mirror_num}. */
        int mirrorNum;
        /** {@code errors}. */
        boolean errors;
        /** {@code orig_bio}. */
        Bio origBio;
        /** {@code sums}: the checksums of the compressed sectors. */
        int[] sums;

        CompressedBio(String name) {
            this.pendingBios = new AtomicT(name + ".pending_bios", 0);
        }
    }

    /** The stand-in decompressor: {@code 2 * in.length} bytes (see the class notes). */
    public static byte[] decompress(byte[] in) {
        byte[] out = new byte[in.length * 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (i & 1) == 0 ? in[i >> 1] : (byte) (in[i >> 1] ^ 0x5a);
        }
        return out;
    }

    /**
     * fs/btrfs/compression.c: {@code btrfs_submit_compressed_read(inode, bio, mirror_num, bio_flags)}
     * (v5.10): look up the extent map of the bio's first page ({@code cb->start = em->orig_start}),
     * allocate the compressed pages, read them with bios cut at stripe boundaries (counting each in
     * {@code pending_bios} before it is submitted), each with its checksums unless
     * {@code NODATASUM}. Returns a {@code BLK_STS_*}.
     */
    static int btrfsSubmitCompressedRead(BtrfsInode inode, Bio bio, int mirrorNum, int bioFlags) {
        BtrfsFsInfo fsInfo = inode.fsInfo;
        long curDiskByte = bio.biIter.biSector << SECTOR_SHIFT;
        long fileOffset = BtrfsInodeOps.pageOffset(BtrfsInodeOps.firstPage(bio));
        ExtentMapTree emTree = inode.extentTree;
        Spinlock.spinLock(emTree.lock);
        ExtentMap em = emTree.lookupExtentMapping(fileOffset, fsInfo.sectorsize);
        Spinlock.spinUnlock(emTree.lock);
        if (em == null) {
            return BlkTypes.BLK_STS_IOERR;
        }
        fsInfo.stats.compressedReads++;
        CompressedBio cb = new CompressedBio(bio.name() + ".cb");
        cb.inode = inode;
        cb.mirrorNum = mirrorNum;
        cb.start = em.origStart;
        cb.compressedLen = em.blockLen;
        ExtentMap.freeExtentMap(em);
        cb.len = Integer.toUnsignedLong(bio.biIter.biSize);
        cb.origBio = bio;
        int nrPages = (int) ((cb.compressedLen + Page.PAGE_SIZE - 1) / Page.PAGE_SIZE);
        cb.compressedPages = new Page[nrPages];
        cb.sums = new int[nrPages];
        for (int i = 0; i < nrPages; i++) {
            cb.compressedPages[i] = inode.vfsInode.iMapping.allocator.allocPage() /* alloc_page(GFP_NOFS | __GFP_HIGHMEM) */;
            Kernel.BUG_ON(cb.compressedPages[i] == null, "btrfs_submit_compressed_read: alloc_page failed");
        }
        cb.nrPages = nrPages;
        boolean sum = (inode.flags & BtrfsInode.BTRFS_INODE_NODATASUM) == 0;
        Bio compBio = newCompBio(fsInfo, curDiskByte, cb);
        cb.pendingBios.set(1);
        int sumsAt = 0;
        for (int i = 0; i < nrPages; i++) {
            Page page = cb.compressedPages[i];
            int submit = 0;
            if (compBio.biIter.biSize != 0) {
                submit = BtrfsInodeOps.btrfsBioFitsInStripe(fsInfo, Page.PAGE_SIZE, compBio, 0);
            }
            if (submit != 0 || BlockBio.bioAddPage(compBio, page, Page.PAGE_SIZE, 0) < Page.PAGE_SIZE) {
                /* inc the count before we submit the bio so the end IO handler won't free the cb first */
                cb.pendingBios.inc();
                if (sum) {
                    BtrfsInodeOps.btrfsLookupBioSums(inode, compBio, cb.sums, sumsAt);
                }
                sumsAt += compBio.biIter.biSize / fsInfo.sectorsize;
                mapCompBio(fsInfo, compBio, mirrorNum);
                compBio = newCompBio(fsInfo, curDiskByte, cb);
                BlockBio.bioAddPage(compBio, page, Page.PAGE_SIZE, 0);
            }
            curDiskByte += Page.PAGE_SIZE;
        }
        if (sum) {
            BtrfsInodeOps.btrfsLookupBioSums(inode, compBio, cb.sums, sumsAt);
        }
        mapCompBio(fsInfo, compBio, mirrorNum);
        return BlkTypes.BLK_STS_OK;
    }

    private static Bio newCompBio(BtrfsFsInfo fsInfo, long diskByte, CompressedBio cb) {
        Bio compBio = BlockBio.bioAllocBioset(BlkTypes.BIO_MAX_PAGES, fsInfo.btrfsBioset);
        compBio.biIter.biSector = diskByte >> SECTOR_SHIFT;
        compBio.biOpf = BlkTypes.REQ_OP_READ;
        compBio.biPrivate = cb;
        compBio.biEndIo = END_COMPRESSED_BIO_READ;
        return compBio;
    }

    private static void mapCompBio(BtrfsFsInfo fsInfo, Bio compBio, int mirrorNum) {
        int ret = Volumes.btrfsMapBio(fsInfo, compBio, mirrorNum);
        if (ret != BlkTypes.BLK_STS_OK) {
            compBio.biStatus = ret;
            BlockBio.bioEndio(compBio);
        }
    }

    /**
     * fs/btrfs/compression.c: {@code end_compressed_bio_read(bio)} (v5.10): the last compressed bio
     * of the extent verifies every compressed sector ({@code check_compressed_csum()}), decompresses
     * into the original bio's pages ({@code btrfs_decompress_bio()}), frees the compressed pages and
     * completes the original bio: with an error, or with every page {@code PG_checked}.
     */
    static final BioEndIo END_COMPRESSED_BIO_READ = new BioEndIo() {
        @Override
        public void endIo(Bio bio) {
            CompressedBio cb = (CompressedBio) bio.biPrivate;
            int mirror = BtrfsIoBio.btrfsIoBio(bio).mirrorNum;
            if (bio.biStatus != BlkTypes.BLK_STS_OK) {
                cb.errors = true;
            }
            if (cb.pendingBios.decAndTest()) {
                BtrfsIoBio.btrfsIoBio(cb.origBio).mirrorNum = mirror;
                cb.mirrorNum = mirror;
                boolean ok = !cb.errors && checkCompressedCsum(cb);
                if (ok) {
                    btrfsDecompressBio(cb);
                } else {
                    cb.errors = true;
                }
                for (int i = 0; i < cb.nrPages; i++) {
                    Page.putPage(cb.compressedPages[i]);
                }
                if (cb.errors) {
                    Bio.bioIoError(cb.origBio);
                } else {
                    for (BioVec bv : Bio.bioForEachSegmentAll(cb.origBio)) {
                        ExtentIo.SetPageChecked(bv.bvPage);
                    }
                    BlockBio.bioEndio(cb.origBio);
                }
            }
            BlockBio.bioPut(bio);
        }

        @Override
        public String toString() {
            return "end_compressed_bio_read";
        }
    };

    /** fs/btrfs/compression.c: {@code check_compressed_csum(inode, cb, disk_start)} (v5.10). */
    static boolean checkCompressedCsum(CompressedBio cb) {
        if ((cb.inode.flags & BtrfsInode.BTRFS_INODE_NODATASUM) != 0) {
            return true;
        }
        for (int i = 0; i < cb.nrPages; i++) {
            Page page = cb.compressedPages[i];
            page.touch();
            if (BtrfsInodeOps.crc32c(page.data, 0, Page.PAGE_SIZE) != cb.sums[i]) {
                cb.inode.fsInfo.stats.csumErrors++;
                Kernel.event("csum failed on compressed extent of %s, mirror %s", cb.inode, cb.mirrorNum);
                return false;
            }
        }
        return true;
    }

    /**
     * fs/btrfs/compression.c: {@code btrfs_decompress_bio(cb)} and {@code btrfs_decompress_buf2page()}
     * (v5.10): decompress the whole extent, then give each page of the original bio the bytes at
     * {@code page_offset(page) - cb->start}; bytes past the decompressed data are zeroed.
     */
    static void btrfsDecompressBio(CompressedBio cb) {
        byte[] in = new byte[(int) cb.compressedLen];
        for (int i = 0; i < cb.nrPages; i++) {
            int n = (int) Math.min(Page.PAGE_SIZE, cb.compressedLen - (long) i * Page.PAGE_SIZE);
            System.arraycopy(cb.compressedPages[i].data, 0, in, i * Page.PAGE_SIZE, n);
        }
        byte[] out = decompress(in);
        for (BioVec bv : Bio.bioForEachSegmentAll(cb.origBio)) {
            Page page = bv.bvPage;
            page.touch();
            long at = BtrfsInodeOps.pageOffset(page) + bv.bvOffset - cb.start;
            for (int i = 0; i < bv.bvLen; i++) {
                long src = at + i;
                page.data[bv.bvOffset + i] = src >= 0 && src < out.length ? out[(int) src] : 0;
            }
        }
        Arrays.fill(in, (byte) 0);
    }
}
