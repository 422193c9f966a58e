package kmodel.fs.btrfs;

import java.util.Map;
import java.util.TreeMap;

/**
 * I/O counters of one btrfs mount, the btrfs sibling of the block module's {@code DiskStats}: the
 * bios btrfs builds ({@code submit_one_bio()}: before mapping to stripes), pages per bio, read
 * repairs. Not a kernel structure. Plain increments by whichever task runs: exact under the
 * deterministic runtime (one task at a time), never read by model code, so they add no scheduling
 * points.
 */
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
    /** Pages per bio: pages -> bios. */
    private final TreeMap<Integer, Long> pagesPerBio = new TreeMap<>();

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
                + " (" + repaired + " repaired), page errors " + pageErrors + ", alloc failures " + allocFailures;
    }
}
