package kmodel.fs.btrfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.function.Consumer;
import java.util.function.Function;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Runtime;
import kmodel.mm.File;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;

/** Helpers for the btrfs tests: a volume built in the program's boot, tasks, end-of-run checks. */
final class BtrfsTesting {
    private BtrfsTesting() {
    }

    /** A world: the volume and whatever the test keeps. */
    static final class World {
        BtrfsVolume vol;
        BtrfsInode inode;
        File file;
    }

    /**
     * Runs one task {@code body} on the world {@code setup} builds (non-preemptive schedule); at the
     * end the volume's checks run. Returns the result.
     */
    static ExecutionResult run(Kconfig config, Function<World, World> setup, Consumer<World> body) {
        final World[] w = new World[1];
        return Run.once(new Program() {
            @Override
            public void boot(Runtime rt) {
                w[0] = setup.apply(new World());
                rt.spawn("t1", null, false, false, () -> body.accept(w[0]));
            }

            @Override
            public String finish() {
                w[0].vol.checkAtEnd();
                return "";
            }
        }, config);
    }

    static ExecutionResult runClean(Kconfig config, Function<World, World> setup, Consumer<World> body) {
        ExecutionResult r = run(config, setup, body);
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
        assertNull(r.stepBound(), () -> r.stepBound());
        return r;
    }

    static Violation runViolating(Kconfig config, ViolationKind kind, Function<World, World> setup, Consumer<World> body) {
        ExecutionResult r = run(config, setup, body);
        Violation v = r.violation();
        assertNotNull(v, "expected " + kind.label());
        assertEquals(kind, v.kind(), () -> v.summary() + (r.oops() != null ? " " + r.oops() : ""));
        return v;
    }

    /** A {@code read(2)} of {@code len} bytes at {@code pos}; checks the bytes; returns the result. */
    static long read(World w, long pos, int len) {
        IovIter iter = new IovIter(len);
        long ret = FilemapRead.genericFileReadIter(new Kiocb(w.file, pos, 0), iter);
        if (ret > 0) {
            BtrfsVolume.expectBytes(w.inode, pos, iter.buf, 0, (int) ret);
        }
        return ret;
    }
}
