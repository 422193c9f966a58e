package kmodel.sim.world;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.Sched;
import kmodel.mm.File;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;

/**
 * Buffered reads of a btrfs file that check their bytes: the readers of the btrfs scenarios
 * ({@code kmodel.verification.scenarios.BtrfsScenarios}) and of the simulation's seed-000
 * workload ({@code kmodel.sim.SimPrograms}).
 */
public final class BtrfsReads {
    private BtrfsReads() {
    }

    /**
     * The current task's {@code read(2)} of {@code len} bytes at {@code pos} through {@code file}:
     * the bytes read are checked against {@code inode}'s contents, and the result is recorded under
     * the task's name in {@code results} (the scenario's outcome is per task).
     */
    public static long readAndCheck(File file, BtrfsInode inode, long pos, int len, Map<String, List<String>> results) {
        IovIter iter = new IovIter(len);
        kmodel.kernel.Kernel.accessRead(file.fInode.iSize); // the contract's view of i_size is a read of it (footprint audit)
        long size = file.fInode.iSize.plain();
        long ret = FilemapRead.genericFileReadIter(new Kiocb(file, pos, 0), iter);
        Kernel.event("read(%s, %s) = %s", pos, len, Errno.name(ret));
        /* Which blocks are bad on every mirror is the scenario's: -EIO and short reads are allowed anywhere. */
        Contracts.readCount("read", file, pos, len, 0, ret, size, p -> true);
        if (ret > 0) {
            BtrfsVolume.expectBytes(inode, pos, iter.buf, 0, (int) ret);
        }
        results.computeIfAbsent(Sched.current().name(), k -> new ArrayList<>()).add(Errno.name(ret));
        return ret;
    }
}
