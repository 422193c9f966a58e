package kmodel.sim.world;

import java.util.function.LongPredicate;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Sched;
import kmodel.mm.File;
import kmodel.mm.Kiocb;

/**
 * What the kernel promises the users of its read interfaces, checked where the worlds make the
 * call (issue 26, "Contracts the kernel promises users"; the table is in docs/contracts.md).
 * The checks here read no shared state at a scheduling point (only {@code i_size} as a plain
 * value, and the task's signal flag when a short read needs the excuse), so they add no
 * interleavings to the search.
 *
 * <p>The count rule of {@code read(2)} / {@code preadv2(2)} on a regular file or block device,
 * from read(2) ("It is not an error if this number is smaller than the number of bytes
 * requested; this may happen for example because fewer bytes are actually available right now
 * (maybe because we were close to end-of-file ...), or because read() was interrupted by a
 * signal"; EINTR "interrupted by a signal before any data was read"; EIO "a low-level I/O error
 * while reading from a disk"), readv(2)'s {@code RWF_NOWAIT} ("If some data was successfully
 * read, it will return the number of bytes read. If no bytes were read, it will return -1 and set
 * errno to EAGAIN") and uapi {@code linux/fs.h} ({@code RWF_NOWAIT}: "per-IO, return -EAGAIN if
 * operation would block"), and {@code generic_file_buffered_read()} (v5.10: a short count only at
 * {@code i_size}, at a fatal signal, at a page whose read failed, or under {@code IOCB_NOWAIT}
 * where the next page would block). So a read of {@code len} bytes at {@code pos}:
 * <ul>
 *   <li>never returns more than {@code len}, nor a kernel-internal errno ({@code -EIOCBQUEUED});</li>
 *   <li>returns {@code -EAGAIN} only with {@code RWF_NOWAIT} ({@code IOCB_NOWAIT});</li>
 *   <li>returns an error other than {@code -EAGAIN} only as {@code -EIO} where a read fails,
 *       {@code -EINTR} with a signal pending, or {@code -ENOMEM} after an injected page
 *       allocation failure ({@code FAIL_PAGE_ALLOC});</li>
 *   <li>returns 0 only at or past end of file;</li>
 *   <li>returns fewer than {@code min(len, i_size - pos)} bytes only under {@code RWF_NOWAIT},
 *       with a signal pending, or where the byte after the ones returned lies in a block whose
 *       read fails (or past an {@code i_size} that shrank during the call).</li>
 * </ul>
 * A break of any is {@code wrong-result}, its message starting {@code contract read-count}.
 */
public final class Contracts {
    private Contracts() {
    }

    /**
     * Checks the count (or error) {@code ret} that a {@code read(2)} ({@code flags} 0) or
     * {@code preadv2(2)} ({@code IOCB_NOWAIT} for {@code RWF_NOWAIT}) of {@code len} bytes at
     * {@code pos} returned, against the rules in the class comment. {@code sizeBefore} is
     * {@code i_size} when the call began; {@code ioErrorAt} says whether a read of the byte at a
     * position fails (an injected device error, a block bad on every mirror).
     */
    public static void readCount(String call, File file, long pos, int len, int flags, long ret, long sizeBefore,
            LongPredicate ioErrorAt) {
        kmodel.kernel.Kernel.accessRead(file.fInode.iSize); // the contract's view of i_size is a read of it (footprint audit)
        long sizeAfter = file.fInode.iSize.plain();
        long size = Math.min(sizeBefore, sizeAfter);
        boolean nowait = (flags & Kiocb.IOCB_NOWAIT) != 0;
        String what = call + "(" + pos + ", " + len + (nowait ? ", RWF_NOWAIT" : "") + ") = " + Errno.name(ret);
        if (ret > len) {
            fail(what + ": more bytes than asked for");
        }
        if (ret < 0) {
            if (ret == -Errno.EAGAIN) {
                if (!nowait) {
                    fail(what + ": -EAGAIN without RWF_NOWAIT (a blocking read must wait, not ask to be retried)");
                }
            } else if (ret == -Errno.EIO) {
                if (!ioErrorAt.test(pos)) {
                    fail(what + ": -EIO, but no read of byte " + pos + " fails");
                }
            } else if (ret == -Errno.EINTR) {
                if (!Sched.current().peekSignalPending()) {
                    fail(what + ": -EINTR with no signal pending");
                }
            } else if (ret == -Errno.ENOMEM) {
                /* A page cache allocation failed (fail_page_alloc, FAIL_PAGE_ALLOC): "written ?: error". */
                if (file.fMapping.allocator.failPageAlloc.injected() == 0) {
                    fail(what + ": -ENOMEM, but no page allocation failed");
                }
            } else {
                fail(what + ": an error read(2) does not return here");
            }
            return;
        }
        long want = Math.max(0, Math.min(len, size - pos));
        if (ret == 0 && want > 0 && !ioErrorAt.test(pos) && !Sched.current().peekSignalPending()) {
            fail(what + ": 0 (end of file) with " + want + " bytes before i_size " + size);
        }
        if (ret < want && !nowait && !ioErrorAt.test(pos + ret) && !Sched.current().peekSignalPending()) {
            fail(what + ": a short read of " + ret + " of " + want + " bytes, with no end of file, signal or"
                    + " failing block at byte " + (pos + ret));
        }
    }

    private static void fail(String msg) {
        Kernel.fail(ViolationKind.WRONG_RESULT, "contract read-count: " + msg);
    }
}
