package kmodel.fs.btrfs;

import java.util.Map;
import java.util.TreeMap;
import kmodel.kernel.sched.AuditExempt;

/**
 * I/O counters of one btrfs mount, the btrfs sibling of the block module's {@code DiskStats}: the
 * bios btrfs builds ({@code submit_one_bio()}: before mapping to stripes), pages per bio, read
 * repairs. Not a kernel structure. Plain increments by whichever task runs: exact under the
 * deterministic runtime (one task at a time), never read by model code, so they add no scheduling
 * points.
 */
@AuditExempt("counters only incremented by steps and read at the end of a run or by the simulation's report")
public final class BtrfsStats {
    /** Bios passed to {@code submit_one_bio()}. */
    public long bios;
    /** Pages of those bios. */
    public long pages;
    /** Compressed-extent reads ({@code btrfs_submit_compressed_read()}). */
    public long compressedReads;
    /** Stripe bios sent to devices by {@code btrfs_map_bio()}. */
    public long stripeBios;
    /** Blocks whose checksum did not match. */
    public long csumErrors;
    /** Repair bios submitted ({@code btrfs_submit_read_repair()}). */
    public long repairs;
    /** Blocks that read repair fixed (a later mirror verified). */
    public long repaired;
    /** Pages {@code end_bio_extent_readpage()} ended with {@code PG_error}. */
    public long pageErrors;
    /** {@code btrfs_bio_alloc()} failures injected. */
    public long allocFailures;
    /** Calls of v5.10's {@code btrfs_file_read_iter()} ({@link BtrfsReadIter}: io_uring's and read(2)'s {@code ->read_iter}). */
    public long readIters;
    /** Pages per bio: pages -> bios. */
    private final TreeMap<Integer, Long> pagesPerBio = new TreeMap<>();
    /** Direct I/O: bios fs/direct-io.c handed to {@code btrfs_submit_direct()}. */
    public long dioBios;
    /** Direct I/O: bios {@code btrfs_submit_direct_hook()} submitted (pieces, or the whole bio unsplit). */
    public long dioPieces;
    /** {@code bio_clone_fast()} calls (seed 001: {@code btrfs_bio_clone()}, {@code btrfs_bio_clone_partial()}). */
    public long fastClones;
    /** {@code bio_clone_bioset()} calls (v4.12 {@code btrfs_bio_clone()}). */
    public long biosetClones;
    /**
     * Bytes of bvec tables copied ({@code sizeof(struct bio_vec)} = 16 per bvec, 64-bit): by
     * {@code bio_clone_bioset()}, and by v4.12's split, which copies the original's bvecs into each
     * piece with {@code bio_add_page()}. A fast clone shares the table and copies none.
     */
    public long bvecBytesCopied;
    /** Direct-read repair bios ({@code dio_read_error()}). */
    public long dioRepairs;
    /** Direct-read sectors left in error after every mirror was tried. */
    public long dioRepairFailures;
    /** Pages per direct I/O piece: pages -> pieces. */
    private final TreeMap<Integer, Long> dioPagesPerBio = new TreeMap<>();

    /**
     * Direct I/O pieces in submission order, each {@code {file offset, logical byte, bytes,
     * bi_idx, bi_bvec_done}} (the last two: where the piece starts in the table it walks).
     */
    public final java.util.List<long[]> dioWindows = new java.util.ArrayList<>();

    void countDioPiece(long fileOffset, long logical, int bytes, int idx, int done) {
        dioWindows.add(new long[] {fileOffset, logical, bytes, idx, done});
        int nrPages = bytes >> kmodel.mm.Page.PAGE_SHIFT;
        dioPieces++;
        Long n = dioPagesPerBio.get(nrPages);
        dioPagesPerBio.put(nrPages, n == null ? 1L : n + 1);
    }

    /** Pages per direct I/O piece, a copy (pages -> pieces). */
    public Map<Integer, Long> dioPagesPerBio() {
        return new TreeMap<>(dioPagesPerBio);
    }

    void countBio(int nrPages) {
        bios++;
        pages += nrPages;
        Long n = pagesPerBio.get(nrPages);
        pagesPerBio.put(nrPages, n == null ? 1L : n + 1);
    }

    /** Pages per bio, a copy (pages -> bios). */
    public Map<Integer, Long> pagesPerBio() {
        return new TreeMap<>(pagesPerBio);
    }

    /** Mean pages per bio (0 when none). */
    public double meanPagesPerBio() {
        return bios == 0 ? 0 : (double) pages / bios;
    }

    @Override
    public String toString() {
        return "bios " + bios + ", pages " + pages + ", pages/bio " + pagesPerBio + ", stripe bios " + stripeBios
                + ", compressed reads " + compressedReads + ", csum errors " + csumErrors + ", repairs " + repairs
                + " (" + repaired + " repaired), page errors " + pageErrors + ", alloc failures " + allocFailures
                + ", dio bios " + dioBios + ", dio pieces " + dioPieces + " (pages/piece " + dioPagesPerBio + "), fast clones "
                + fastClones + ", bioset clones " + biosetClones + ", bvec bytes copied " + bvecBytesCopied
                + ", dio repairs " + dioRepairs + " (" + dioRepairFailures + " failed)";
    }
}
