package kmodel.block;

import kmodel.kernel.Kernel;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.Runtime;

/**
 * include/linux/blk_types.h (v5.10): operations, request flags, bio flags and status codes,
 * numbered as in the kernel.
 *
 * <p>{@code bi_opf} holds the operation in its low {@value #REQ_OP_BITS} bits and the
 * {@code REQ_*} flags above them. There is deliberately no {@code REQ_RAHEAD} constant: its
 * value depends on seed 002 patch 01 ({@link BlockOptions#REQ_RAHEAD_NOWAIT}; by default n, v5.10's
 * one bit), so model code composes it with {@link #reqRahead()} and tests {@link #REQ_RAHEAD_BIT}.
 */
public final class BlkTypes {
    private BlkTypes() {
    }

    // ------------------------------------------------------------------ blk_status_t

    /** {@code BLK_STS_OK}. */
    public static final int BLK_STS_OK = 0;
    /** {@code BLK_STS_NOTSUPP}: -EOPNOTSUPP (e.g. REQ_NOWAIT to a queue without QUEUE_FLAG_NOWAIT). */
    public static final int BLK_STS_NOTSUPP = 1;
    /** {@code BLK_STS_TIMEOUT}: -ETIMEDOUT. */
    public static final int BLK_STS_TIMEOUT = 2;
    /** {@code BLK_STS_NOSPC}: -ENOSPC. */
    public static final int BLK_STS_NOSPC = 3;
    /** {@code BLK_STS_RESOURCE}: -ENOMEM. */
    public static final int BLK_STS_RESOURCE = 9;
    /** {@code BLK_STS_IOERR}: -EIO, "everything else". */
    public static final int BLK_STS_IOERR = 10;
    /** {@code BLK_STS_AGAIN}: -EAGAIN, "nonblocking retry" (bio_wouldblock_error). */
    public static final int BLK_STS_AGAIN = 12;
    /** {@code BLK_STS_DEV_RESOURCE}: -EBUSY. */
    public static final int BLK_STS_DEV_RESOURCE = 13;

    // ------------------------------------------------------------------ enum req_opf

    /** {@code REQ_OP_BITS}. */
    public static final int REQ_OP_BITS = 8;
    /** {@code REQ_OP_MASK}. */
    public static final long REQ_OP_MASK = (1L << REQ_OP_BITS) - 1;
    /** {@code REQ_OP_READ}. */
    public static final int REQ_OP_READ = 0;
    /** {@code REQ_OP_WRITE}. */
    public static final int REQ_OP_WRITE = 1;
    /** {@code REQ_OP_FLUSH}. */
    public static final int REQ_OP_FLUSH = 2;
    /** {@code REQ_OP_DISCARD}. */
    public static final int REQ_OP_DISCARD = 3;
    /** {@code REQ_OP_SECURE_ERASE}. */
    public static final int REQ_OP_SECURE_ERASE = 5;
    /** {@code REQ_OP_WRITE_SAME}. */
    public static final int REQ_OP_WRITE_SAME = 7;
    /** {@code REQ_OP_WRITE_ZEROES}. */
    public static final int REQ_OP_WRITE_ZEROES = 9;

    // ------------------------------------------------------------------ enum req_flag_bits

    /** {@code __REQ_FAILFAST_DEV}: no driver retries of device errors. */
    public static final int __REQ_FAILFAST_DEV = REQ_OP_BITS;
    /** {@code __REQ_FAILFAST_TRANSPORT}. */
    public static final int __REQ_FAILFAST_TRANSPORT = 9;
    /** {@code __REQ_FAILFAST_DRIVER}. */
    public static final int __REQ_FAILFAST_DRIVER = 10;
    /** {@code __REQ_SYNC}. */
    public static final int __REQ_SYNC = 11;
    /** {@code __REQ_META}. */
    public static final int __REQ_META = 12;
    /** {@code __REQ_PRIO}. */
    public static final int __REQ_PRIO = 13;
    /** {@code __REQ_NOMERGE}. */
    public static final int __REQ_NOMERGE = 14;
    /** {@code __REQ_IDLE}. */
    public static final int __REQ_IDLE = 15;
    /** {@code __REQ_INTEGRITY}. */
    public static final int __REQ_INTEGRITY = 16;
    /** {@code __REQ_FUA}. */
    public static final int __REQ_FUA = 17;
    /** {@code __REQ_PREFLUSH}. */
    public static final int __REQ_PREFLUSH = 18;
    /** {@code __REQ_RAHEAD}: read ahead, can fail anytime. */
    public static final int __REQ_RAHEAD = 19;
    /** {@code __REQ_BACKGROUND}. */
    public static final int __REQ_BACKGROUND = 20;
    /** {@code __REQ_NOWAIT}: don't wait if the request will block. */
    public static final int __REQ_NOWAIT = 21;

    /** {@code REQ_FAILFAST_DEV}. */
    public static final long REQ_FAILFAST_DEV = 1L << __REQ_FAILFAST_DEV;
    /** {@code REQ_FAILFAST_TRANSPORT}. */
    public static final long REQ_FAILFAST_TRANSPORT = 1L << __REQ_FAILFAST_TRANSPORT;
    /** {@code REQ_FAILFAST_DRIVER}. */
    public static final long REQ_FAILFAST_DRIVER = 1L << __REQ_FAILFAST_DRIVER;
    /** {@code REQ_SYNC}. */
    public static final long REQ_SYNC = 1L << __REQ_SYNC;
    /** {@code REQ_META}. */
    public static final long REQ_META = 1L << __REQ_META;
    /** {@code REQ_NOMERGE}. */
    public static final long REQ_NOMERGE = 1L << __REQ_NOMERGE;
    /** {@code REQ_FUA}. */
    public static final long REQ_FUA = 1L << __REQ_FUA;
    /** {@code REQ_PREFLUSH}. */
    public static final long REQ_PREFLUSH = 1L << __REQ_PREFLUSH;
    /** The {@code __REQ_RAHEAD} bit alone: what {@code REQ_RAHEAD} is without seed 002 patch 01. */
    public static final long REQ_RAHEAD_BIT = 1L << __REQ_RAHEAD;
    /** {@code REQ_BACKGROUND}. */
    public static final long REQ_BACKGROUND = 1L << __REQ_BACKGROUND;
    /** {@code REQ_NOWAIT}. */
    public static final long REQ_NOWAIT = 1L << __REQ_NOWAIT;
    /** {@code REQ_FAILFAST_MASK}. */
    public static final long REQ_FAILFAST_MASK = REQ_FAILFAST_DEV | REQ_FAILFAST_TRANSPORT | REQ_FAILFAST_DRIVER;

    /**
     * include/linux/blk_types.h: {@code REQ_RAHEAD} as a mask, composed per
     * {@link BlockOptions#REQ_RAHEAD_NOWAIT}: in the merged v5.9/v5.10 code (the default) it is
     * {@code (1ULL << __REQ_RAHEAD)}; with seed 002 patch 01 applied (profile {@code seed-002}),
     * {@code (1ULL << __REQ_RAHEAD) | (1ULL << __REQ_NOWAIT)}.
     *
     * <p>As in the patched kernel, a test {@code bi_opf & REQ_RAHEAD} is then also true for a bio
     * that is merely {@code REQ_NOWAIT} (e.g. {@code blk_mq_bio_to_request()} marks it failfast).
     */
    public static long reqRahead() {
        return reqRahead(Kernel.config());
    }

    /** {@link #reqRahead()} for an explicit configuration. */
    public static long reqRahead(Kconfig config) {
        return config.enabled(BlockOptions.REQ_RAHEAD_NOWAIT) ? REQ_RAHEAD_BIT | REQ_NOWAIT : REQ_RAHEAD_BIT;
    }

    // ------------------------------------------------------------------ bio flags (bi_flags)

    /** {@code BIO_NO_PAGE_REF}: don't put release vec pages. */
    public static final int BIO_NO_PAGE_REF = 0;
    /** {@code BIO_CLONED}: doesn't own data (shares the parent's bvec table). */
    public static final int BIO_CLONED = 1;
    /** {@code BIO_BOUNCED}. */
    public static final int BIO_BOUNCED = 2;
    /** {@code BIO_WORKINGSET}. */
    public static final int BIO_WORKINGSET = 3;
    /** {@code BIO_QUIET}: make the bio quiet (no error messages). */
    public static final int BIO_QUIET = 4;
    /** {@code BIO_CHAIN}: chained bio, {@code __bi_remaining} in effect. */
    public static final int BIO_CHAIN = 5;
    /** {@code BIO_REFFED}: bio has an elevated {@code __bi_cnt}. */
    public static final int BIO_REFFED = 6;
    /** {@code BIO_TRACE_COMPLETION}. */
    public static final int BIO_TRACE_COMPLETION = 8;

    /** include/linux/bio.h: {@code BIO_MAX_PAGES} (v5.10). */
    public static final int BIO_MAX_PAGES = 256;
    /** include/linux/bio.h: {@code BIO_INLINE_VECS}. */
    public static final int BIO_INLINE_VECS = 4;
    /** {@code sizeof(struct bio_vec)} on a 64-bit kernel: page pointer, length, offset. */
    public static final int SIZEOF_BIO_VEC = 16;
    /** {@code SECTOR_SHIFT}. */
    public static final int SECTOR_SHIFT = 9;
    /** {@code SECTOR_SIZE}. */
    public static final int SECTOR_SIZE = 512;

    /** include/linux/blk_types.h: {@code op_is_write()}. */
    public static boolean opIsWrite(int op) {
        return (op & 1) != 0;
    }

    /** The operation of a {@code bi_opf}/{@code cmd_flags} word. */
    public static int opOf(long opf) {
        return (int) (opf & REQ_OP_MASK);
    }

    /** The status' name, for traces: "BLK_STS_AGAIN". */
    public static String statusName(int status) {
        switch (status) {
            case BLK_STS_OK: return "BLK_STS_OK";
            case BLK_STS_NOTSUPP: return "BLK_STS_NOTSUPP";
            case BLK_STS_TIMEOUT: return "BLK_STS_TIMEOUT";
            case BLK_STS_NOSPC: return "BLK_STS_NOSPC";
            case BLK_STS_RESOURCE: return "BLK_STS_RESOURCE";
            case BLK_STS_IOERR: return "BLK_STS_IOERR";
            case BLK_STS_AGAIN: return "BLK_STS_AGAIN";
            case BLK_STS_DEV_RESOURCE: return "BLK_STS_DEV_RESOURCE";
            default: return "BLK_STS_" + status;
        }
    }

    /** The operation and flags of {@code opf}, for traces: "READ|RAHEAD|NOWAIT". */
    public static String opfName(long opf) {
        StringBuilder sb = new StringBuilder();
        switch (opOf(opf)) {
            case REQ_OP_READ: sb.append("READ"); break;
            case REQ_OP_WRITE: sb.append("WRITE"); break;
            case REQ_OP_FLUSH: sb.append("FLUSH"); break;
            case REQ_OP_DISCARD: sb.append("DISCARD"); break;
            default: sb.append("OP").append(opOf(opf)); break;
        }
        if ((opf & REQ_FAILFAST_MASK) != 0) {
            sb.append("|FAILFAST");
        }
        if ((opf & REQ_SYNC) != 0) {
            sb.append("|SYNC");
        }
        if ((opf & REQ_RAHEAD_BIT) != 0) {
            sb.append("|RAHEAD");
        }
        if ((opf & REQ_NOWAIT) != 0) {
            sb.append("|NOWAIT");
        }
        return sb.toString();
    }

    /** Whether a trace is being recorded (to skip building event text otherwise). */
    static boolean tracing() {
        Runtime rt = Kernel.rt();
        return rt.tracing();
    }
}
