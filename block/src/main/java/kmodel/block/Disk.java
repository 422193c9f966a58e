package kmodel.block;

import kmodel.kernel.sched.Work;
import kmodel.kernel.sched.Task;
import static kmodel.block.BlkTypes.SECTOR_SHIFT;
import static kmodel.block.BlkTypes.SECTOR_SIZE;

import java.util.Arrays;
import java.util.HashMap;
import java.util.TreeSet;
import kmodel.kernel.Kernel;
import kmodel.mm.Page;

/**
 * A simulated blk-mq disk and its driver, in the manner of drivers/block/null_blk with
 * {@code irqmode} set: media of 512-byte sectors with contents, {@code nr_requests} request
 * tags, a {@link DiskKind} ({@code REQ_NOWAIT} supported, not supported, or failed with
 * {@code BLK_STS_AGAIN} at completion), and injectable read errors.
 *
 * <h2>Completion in interrupt context</h2>
 * {@link #queueRq} starts the request and creates an interrupt-context task named
 * {@code "irq:" + bio} (column "irq"); the schedule explorer therefore picks when each request
 * completes, in any order relative to the others and to every other task. The interrupt handler
 * ({@link #completeRequest}):
 * <ol>
 *   <li>transfers the data, walking the bio from its {@code bi_iter} as a driver walks a request
 *       ({@code rq_for_each_segment}): device to pages for reads, pages to device for writes;
 *       a read stops at the first sector with an injected error;</li>
 *   <li>{@code blk_mq_end_request(rq, status)}: {@code bio_advance()} (so {@code bi_iter} is
 *       consumed), {@code bio_endio()} (the bio's {@code bi_end_io}, still in interrupt
 *       context), and only then the request and its tag are freed, waking a tag waiter.</li>
 * </ol>
 * On an {@link DiskKind#AGAIN_AT_COMPLETION} disk a {@code REQ_NOWAIT} request transfers nothing
 * and ends with {@code BLK_STS_AGAIN} instead.
 *
 * <p>Lock rule: the media is touched only by completions of requests for the sectors in
 * question and by set-up code; concurrent requests for the same sectors are not ordered (as on
 * a real disk). Error injection is set-up only.
 */
public final class Disk implements BlkMqOps {
    /** The gendisk. */
    public final GenDisk gendisk;
    /** Its request queue. */
    public final RequestQueue queue;
    /**
     * The media: sectors written so far; every other sector holds its initial {@link #pattern}.
     * Kept sparse so that building a large disk costs nothing per execution.
     */
    private final HashMap<Long, byte[]> written = new HashMap<>(); // looked up per sector: hashed, not sorted
    /** Sectors whose reads fail with {@code BLK_STS_IOERR}. */
    private final TreeSet<Long> badSectors = new TreeSet<>();
    /** What the device does with {@code REQ_NOWAIT}; set up once. */
    public final DiskKind kind;

    /**
     * A disk of {@code nrSectors} sectors with {@code nrTags} request tags; {@code nowait}
     * sets {@code QUEUE_FLAG_NOWAIT} ({@link DiskKind#NOWAIT}, else {@link DiskKind#NO_NOWAIT}).
     * The media initially holds {@link #pattern}.
     */
    public Disk(BlockLayer layer, String name, long nrSectors, int nrTags, boolean nowait) {
        this(layer, name, nrSectors, nrTags, nowait ? DiskKind.NOWAIT : DiskKind.NO_NOWAIT);
    }

    /**
     * A disk of {@code nrSectors} sectors with {@code nrTags} request tags, of the given kind:
     * {@code QUEUE_FLAG_NOWAIT} is set unless {@code kind} is {@link DiskKind#NO_NOWAIT}. The
     * media initially holds {@link #pattern}.
     */
    public Disk(BlockLayer layer, String name, long nrSectors, int nrTags, DiskKind kind) {
        Kernel.BUG_ON(nrSectors <= 0, "disk size " + nrSectors);
        this.kind = kind;
        this.queue = new RequestQueue(layer, name, nrTags, kind != DiskKind.NO_NOWAIT, this);
        this.gendisk = new GenDisk(layer, name, queue, nrSectors);
        this.gendisk.privateData = this;
        this.queue.disk = gendisk;
    }

    /**
     * The initial contents of byte {@code offset} of sector {@code sector}: deterministic, and
     * different for neighbouring sectors and pages at the same offset.
     */
    public static byte pattern(long sector, int offset) {
        return (byte) (sector * 7 + (sector >>> 8) * 13 + offset * 3 + 1);
    }

    /** The byte at device position {@code pos} now (checks; no scheduling point). */
    public byte byteAt(long pos) {
        long sector = pos >>> SECTOR_SHIFT;
        int off = (int) (pos & (SECTOR_SIZE - 1));
        byte[] data = written.isEmpty() ? null : written.get(sector);
        return data != null ? data[off] : pattern(sector, off);
    }

    /** Copies {@code len} bytes of device position {@code pos} into {@code dst[dstOff..]} (no scheduling point). */
    public void copyOut(long pos, byte[] dst, int dstOff, int len) {
        int done = 0;
        while (done < len) {
            long p = pos + done;
            long sector = p >>> SECTOR_SHIFT;
            int off = (int) (p & (SECTOR_SIZE - 1));
            int n = Math.min(len - done, SECTOR_SIZE - off);
            byte[] data = written.isEmpty() ? null : written.get(sector);
            System.arraycopy(data != null ? data : patternSector(sector), off, dst, dstOff + done, n);
            done += n;
        }
    }

    /** Whether {@code len} bytes of {@code buf[off..]} equal the device's from {@code pos}; -1 if so, else the first differing index. */
    public int firstMismatch(long pos, byte[] buf, int off, int len) {
        int done = 0;
        while (done < len) {
            long p = pos + done;
            long sector = p >>> SECTOR_SHIFT;
            int so = (int) (p & (SECTOR_SIZE - 1));
            int n = Math.min(len - done, SECTOR_SIZE - so);
            byte[] data = written.isEmpty() ? null : written.get(sector);
            if (data == null) {
                data = patternSector(sector);
            }
            int m = Arrays.mismatch(buf, off + done, off + done + n, data, so, so + n);
            if (m >= 0) {
                return done + m;
            }
            done += n;
        }
        return -1;
    }

    /**
     * {@link #pattern} of a whole sector, memoised: a pure function of the sector number, so the
     * memo is not model state (every execution would compute the same bytes).
     */
    private static byte[] patternSector(long sector) {
        boolean memo = sector < PATTERN_MEMO.length;
        Memo m = memo ? PATTERN_MEMO[(int) sector] : null;
        if (m != null) {
            return m.bytes;
        }
        byte[] b = new byte[SECTOR_SIZE];
        for (int i = 0; i < SECTOR_SIZE; i++) {
            b[i] = pattern(sector, i);
        }
        if (memo) {
            PATTERN_MEMO[(int) sector] = new Memo(b);
        }
        return b;
    }

    /**
     * One memoised sector. Explorations run side by side ({@code --jobs N}) share the memo without a
     * lock: the bytes are reached through a final field, so a thread that sees the {@code Memo}
     * sees them filled in (JLS 17.5); two threads that both miss compute the same bytes.
     */
    private static final class Memo {
        final byte[] bytes;

        Memo(byte[] bytes) {
            this.bytes = bytes;
        }
    }

    private static final Memo[] PATTERN_MEMO = new Memo[4096];

    /** A copy of {@code len} bytes from device position {@code pos} (checks). */
    public byte[] read(long pos, int len) {
        byte[] out = new byte[len];
        for (int i = 0; i < len; i++) {
            out[i] = byteAt(pos + i);
        }
        return out;
    }

    /** The sector's bytes, materialised for writing. */
    private byte[] sectorForWrite(long sector) {
        byte[] data = written.get(sector);
        if (data == null) {
            data = patternSector(sector).clone(); // the memoised pattern, not 512 calls of pattern()
            written.put(sector, data);
        }
        return data;
    }

    /**
     * Flips the bits of the byte at device position {@code pos} (set-up only): silent corruption,
     * which the device reads back without an error and only a checksum can find.
     */
    public void corruptByte(long pos) {
        long sector = pos >>> SECTOR_SHIFT;
        byte[] data = sectorForWrite(sector);
        int off = (int) (pos & (SECTOR_SIZE - 1));
        data[off] = (byte) ~data[off];
    }

    /** Makes reads of {@code sector} fail with {@code BLK_STS_IOERR} (set-up only). */
    public void injectReadError(long sector) {
        badSectors.add(sector);
    }

    /** The statistics. */
    public DiskStats stats() {
        return gendisk.stats;
    }

    /**
     * {@code ->queue_rq()}: {@code blk_mq_start_request()} and raise the completion interrupt as
     * a task of its own.
     */
    @Override
    public int queueRq(final Request rq) {
        BlkMq.blkMqStartRequest(rq);
        Task irq = Kernel.rt().spawn("irq:" + rq.bio, "irq", true, false, new Runnable() {
            @Override
            public void run() {
                Kernel.rt().work(Work.IRQ, 1);
                completeRequest(rq);
            }
        });
        Kernel.rt().deviceIo(irq, this, rq.blkRqBytes(), BlkTypes.opIsWrite(BlkTypes.opOf(rq.cmdFlags)));
        return BlkTypes.BLK_STS_OK;
    }

    /**
     * The completion interrupt: on an {@link DiskKind#AGAIN_AT_COMPLETION} disk a
     * {@code REQ_NOWAIT} request ends with {@code BLK_STS_AGAIN} and no data; otherwise transfer
     * the data, then {@code blk_mq_end_request()} with
     * {@code BLK_STS_OK}, or {@code BLK_STS_IOERR} when a read met a bad sector (the sectors before
     * it were transferred, as a device DMAs before reporting the error).
     */
    void completeRequest(Request rq) {
        Bio bio = rq.bio;
        if (kind == DiskKind.AGAIN_AT_COMPLETION && (rq.cmdFlags & BlkTypes.REQ_NOWAIT) != 0) {
            /* The driver ran out of resources for a nowait request: nothing moves, BLK_STS_AGAIN. */
            gendisk.stats.againAtCompletion++;
            if (BlkTypes.tracing()) {
                Kernel.event("%s fails nowait %s: BLK_STS_AGAIN", gendisk, bio);
            }
            BlkMq.blkMqEndRequest(rq, BlkTypes.BLK_STS_AGAIN);
            return;
        }
        boolean write = BlkTypes.opIsWrite(BlkTypes.opOf(rq.cmdFlags));
        long pos = rq.blkRqPos() << SECTOR_SHIFT;
        int status = BlkTypes.BLK_STS_OK;
        BvecIter iter = new BvecIter();
        for (BioVec bv : Bio.bioForEachSegment(bio, iter)) {
            Page page = bv.bvPage;
            page.touch();
            int len = bv.bvLen;
            if (!write && !badSectors.isEmpty()) {
                /* A read stops at the first bad sector that starts in this segment. */
                long end = pos + bv.bvLen;
                for (long at = (pos + SECTOR_SIZE - 1) & ~(long) (SECTOR_SIZE - 1); at < end; at += SECTOR_SIZE) {
                    if (badSectors.contains(at >>> SECTOR_SHIFT)) {
                        status = BlkTypes.BLK_STS_IOERR;
                        len = (int) (at - pos);
                        break;
                    }
                }
            }
            if (write) {
                for (int i = 0; i < len; i++) {
                    long p = pos + i;
                    sectorForWrite(p >>> SECTOR_SHIFT)[(int) (p & (SECTOR_SIZE - 1))] = page.data[bv.bvOffset + i];
                }
                gendisk.stats.bytesWritten += len;
            } else {
                page.dmaFilling();
                copyOut(pos, page.data, bv.bvOffset, len);
                page.dmaFilled();
                gendisk.stats.bytesRead += len;
            }
            pos += len;
            if (status != BlkTypes.BLK_STS_OK) {
                break;
            }
        }
        if (status != BlkTypes.BLK_STS_OK) {
            gendisk.stats.ioErrors++;
        }
        if (BlkTypes.tracing()) {
            Kernel.event("%s completes %s: %s", gendisk, bio, BlkTypes.statusName(status));
        }
        BlkMq.blkMqEndRequest(rq, status);
    }

    @Override
    public String toString() {
        return gendisk.diskName;
    }
}
