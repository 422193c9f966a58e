package kmodel.mm;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;

/** A file on the fake disk, for read-path tests: build it in boot or inside Run.task. */
final class ReadWorld {
    final FakeAops aops;
    final Inode inode;
    final File file;

    ReadWorld(long size, int raPages, FakeAops.Mode mode, boolean viaIrq) {
        aops = new FakeAops(mode, viaIrq);
        aops.fileSize = size;
        inode = new Inode("inode", size, aops, Page.PAGE_SHIFT);
        file = new File("file", inode, raPages);
        file.fMode |= File.FMODE_NOWAIT | File.FMODE_BUF_RASYNC;
    }

    AddressSpace mapping() {
        return inode.iMapping;
    }

    /** A fresh kiocb at {@code pos}. */
    Kiocb kiocb(long pos, int flags) {
        return new Kiocb(file, pos, flags);
    }

    /** Reads {@code len} bytes at {@code pos} with {@code flags}; returns the result. */
    long read(long pos, int len, int flags, IovIter[] out) {
        IovIter iter = new IovIter(len);
        if (out != null) {
            out[0] = iter;
        }
        return FilemapRead.genericFileBufferedRead(kiocb(pos, flags), iter, 0);
    }

    /** {@code data-corruption} unless the first {@code n} bytes of {@code iter} are the file's from {@code pos}. */
    static void checkBytes(IovIter iter, long pos, long n) {
        for (int i = 0; i < n; i++) {
            if (iter.buf[i] != FakeAops.byteAt(pos + i)) {
                Kernel.fail(ViolationKind.DATA_CORRUPTION, "byte " + (pos + i) + " read as " + iter.buf[i]
                        + ", the file holds " + FakeAops.byteAt(pos + i));
            }
        }
    }

    /** End-of-run checks: the cache's references, no page left locked, the invariants. */
    void finish() {
        PageCache.checkInvariants(mapping());
        PageCache.expectCacheReferences(mapping(), Kernel.lifetimes());
        mapping().allocator.waitTable().checkInvariants();
    }
}
