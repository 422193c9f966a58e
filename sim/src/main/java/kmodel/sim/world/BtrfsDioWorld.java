package kmodel.sim.world;

import java.util.ArrayList;
import java.util.List;
import kmodel.fs.btrfs.BtrfsFile;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Sched;
import kmodel.mm.File;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.Page;

/**
 * A btrfs volume with one file, written and read with direct I/O ({@code O_DIRECT}) and buffered
 * by tasks t1 and t2 (a file each), and the calls' results: the world of the direct I/O scenarios
 * ({@code kmodel.verification.scenarios.BtrfsDioScenarios}) and of the simulation's direct writes
 * ({@code kmodel.sim.SimPrograms}).
 */
public final class BtrfsDioWorld {
    public final BtrfsVolume vol;
    public final BtrfsInode inode;
    public final List<String> results = new ArrayList<>();
    private final File[] files = new File[2];

    public BtrfsDioWorld(BtrfsVolume.Profile profile, int pages, boolean nodatacow) {
        vol = BtrfsVolume.mkfs(profile, false);
        BtrfsVolume.FileBuilder b = vol.file("f");
        b.regular(0, (long) pages * Page.PAGE_SIZE);
        if (nodatacow) {
            b.nodatacow();
        }
        inode = b.create();
        for (int i = 0; i < files.length; i++) {
            files[i] = vol.open(inode, "f.t" + (i + 1), 0);
        }
    }

    private File file() {
        return files[Sched.current().name().endsWith("2") ? 1 : 0];
    }

    /** {@code pread(fd, buf, len, pos)} with {@code O_DIRECT}; the bytes are in {@code out[0]}. */
    public long directRead(long pos, int len, byte[][] out) {
        IovIter iter = new IovIter(len);
        long ret = BtrfsFile.btrfsFileReadIter(new Kiocb(file(), pos, Kiocb.IOCB_DIRECT), iter);
        Kernel.event("pread(O_DIRECT, %s, %s) = %s", pos, len, Errno.name(ret));
        results.add(Sched.current().name() + ":dread=" + Errno.name(ret));
        out[0] = iter.buf;
        return ret;
    }

    /** A direct read that must return the file's bytes. */
    public void directReadExpectingFile(long pos, int len) {
        byte[][] out = new byte[1][];
        long ret = directRead(pos, len, out);
        if (ret != len) {
            Kernel.fail(ViolationKind.WRONG_RESULT, "direct read of " + len + " bytes at " + pos + " returned "
                    + Errno.name(ret));
        }
        BtrfsVolume.expectBytes(inode, pos, out[0], 0, len);
    }

    /** {@code pwrite(fd, buf, len, pos)} with {@code O_DIRECT} of a pattern; recorded as the file's bytes once it returned. */
    public void directWrite(long pos, int len) {
        IovIter iter = new IovIter(len);
        for (int i = 0; i < len; i++) {
            /* not periodic at any power of two: a piece written from the wrong page differs */
            iter.buf[i] = (byte) (i * 31 + 7 + i / 251);
        }
        byte[] data = iter.buf.clone();
        long ret = BtrfsFile.btrfsFileWriteIter(new Kiocb(file(), pos, Kiocb.IOCB_DIRECT | Kiocb.IOCB_WRITE), iter);
        Kernel.event("pwrite(O_DIRECT, %s, %s) = %s", pos, len, Errno.name(ret));
        results.add(Sched.current().name() + ":dwrite=" + Errno.name(ret));
        if (ret != len) {
            Kernel.fail(ViolationKind.WRONG_RESULT, "direct write of " + len + " bytes at " + pos + " returned "
                    + Errno.name(ret));
        }
        BtrfsVolume.wrote(inode, pos, data, 0, len);
    }

    /** A buffered {@code read(2)} that must return the file's bytes. */
    public void bufferedReadExpectingFile(long pos, int len) {
        IovIter iter = new IovIter(len);
        long ret = kmodel.mm.FilemapRead.genericFileReadIter(new Kiocb(file(), pos, 0), iter);
        results.add(Sched.current().name() + ":read=" + Errno.name(ret));
        if (ret != len) {
            Kernel.fail(ViolationKind.WRONG_RESULT, "buffered read of " + len + " bytes at " + pos + " returned "
                    + Errno.name(ret));
        }
        BtrfsVolume.expectBytes(inode, pos, iter.buf, 0, len);
    }

    public String outcome() {
        return Texts.join(" ", results) + " pages/piece " + vol.fsInfo.stats.dioPagesPerBio();
    }
}
