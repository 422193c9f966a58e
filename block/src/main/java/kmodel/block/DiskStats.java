package kmodel.block;

import java.util.Map;
import java.util.TreeMap;
import kmodel.kernel.sched.AuditExempt;

/**
 * I/O counters of one disk, for the performance simulation and for tests that check merging. Not
 * a kernel structure (its {@code /sys/block/X/stat} counterpart counts differently).
 *
 * <p>Updated with plain increments by whichever task runs (submitters, completions). That is
 * exact under the deterministic runtime, which runs one task at a time; under the free-running
 * runtime the counts are approximate. They are never read by model code, so they add no
 * scheduling points and cannot change what the checker explores.
 */
@AuditExempt("counters only incremented by steps and read at the end of a run or by the simulation's report")
public final class DiskStats {
    /** Bios passed to {@code submit_bio()} (before any split). */
    public long biosSubmitted;
    /** Of those, bios with {@code REQ_RAHEAD}. */
    public long raheadBios;
    /** Of those, bios with {@code REQ_NOWAIT}. */
    public long nowaitBios;
    /** Pages (segments) of the bios passed to {@code submit_bio()}. */
    public long pagesSubmitted;
    /** Bytes of the bios passed to {@code submit_bio()}. */
    public long bytesSubmitted;
    /** Requests issued to the driver. */
    public long requestsIssued;
    /** Requests completed by the driver. */
    public long requestsCompleted;
    /** Bytes the device copied into pages (reads). */
    public long bytesRead;
    /** Bytes the device copied from pages (writes). */
    public long bytesWritten;
    /** Bios failed with {@code BLK_STS_AGAIN} because no request tag was free. */
    public long again;
    /** {@code REQ_NOWAIT} requests the driver failed with {@code BLK_STS_AGAIN} at completion ({@link DiskKind#AGAIN_AT_COMPLETION}). */
    public long againAtCompletion;
    /** Bios failed with {@code BLK_STS_NOTSUPP} (e.g. {@code REQ_NOWAIT} without queue support). */
    public long notsupp;
    /** Requests completed with {@code BLK_STS_IOERR} (injected media errors), or bios failed at submit. */
    public long ioErrors;
    /** Times a submitter slept waiting for a request tag. */
    public long tagWaits;
    /** Bios split by {@code __blk_queue_split()}. */
    public long splits;
    /** Pages per submitted bio: segments -> number of bios. */
    private final TreeMap<Integer, Long> pagesPerBio = new TreeMap<>();

    void countSubmit(Bio bio, int segments) {
        biosSubmitted++;
        if ((bio.biOpf & BlkTypes.REQ_RAHEAD_BIT) != 0) {
            raheadBios++;
        }
        if ((bio.biOpf & BlkTypes.REQ_NOWAIT) != 0) {
            nowaitBios++;
        }
        pagesSubmitted += segments;
        bytesSubmitted += Integer.toUnsignedLong(bio.biIter.biSize);
        Long n = pagesPerBio.get(segments);
        pagesPerBio.put(segments, n == null ? 1L : n + 1);
    }

    /** Pages per submitted bio: a copy of the histogram (segments -> bios). */
    public Map<Integer, Long> pagesPerBio() {
        return new TreeMap<>(pagesPerBio);
    }

    /** Mean pages per submitted bio (0 when none). */
    public double meanPagesPerBio() {
        return biosSubmitted == 0 ? 0 : (double) pagesSubmitted / biosSubmitted;
    }

    @Override
    public String toString() {
        return "bios " + biosSubmitted + " (rahead " + raheadBios + ", nowait " + nowaitBios + "), pages " + pagesSubmitted
                + ", requests " + requestsIssued + "/" + requestsCompleted + ", read " + bytesRead + " B, written "
                + bytesWritten + " B, again " + again + ", notsupp " + notsupp + ", ioerr " + ioErrors + ", tag waits "
                + tagWaits + ", splits " + splits + ", pages/bio " + pagesPerBio;
    }
}
