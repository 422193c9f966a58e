package kmodel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.util.SplittableRandom;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.Violation;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Run;
import kmodel.kernel.sched.Strategy;
import kmodel.mm.Page;
import kmodel.mm.PageAllocator;

/** Helpers for the block tests: run model code in a task, make pages, collect bytes. */
final class BlockTesting {
    private BlockTesting() {
    }

    /** Runs {@code body} as the only task (plus any completions it spawns); asserts no violation. */
    static ExecutionResult runClean(Kconfig config, Runnable body) {
        ExecutionResult r = Run.task(config, body);
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
        assertNull(r.stepBound(), () -> r.stepBound());
        return r;
    }

    static ExecutionResult runClean(Runnable body) {
        return runClean(Kconfig.defaults(), body);
    }

    /** Runs {@code body}, which must end in a violation of {@code kind}; returns it. */
    static Violation runViolating(ViolationKind kind, Runnable body) {
        ExecutionResult r = Run.task(Kconfig.defaults(), body);
        Violation v = r.violation();
        assertNotNull(v, "expected " + kind.label());
        assertEquals(kind, v.kind(), () -> v.summary() + (r.oops() != null ? " " + r.oops() : ""));
        return v;
    }

    /**
     * {@code n} pages from a fresh allocator, filled with {@code fill(page, offset)}, each declared
     * as legitimately held by the test at the end.
     */
    static Page[] pages(int n) {
        PageAllocator a = new PageAllocator();
        Page[] p = new Page[n];
        for (int i = 0; i < n; i++) {
            p[i] = a.allocPage();
            for (int off = 0; off < Page.PAGE_SIZE; off++) {
                p[i].data[off] = fill(i, off);
            }
            Kernel.lifetimes().expect(p[i], 1, "test page");
        }
        return p;
    }

    static byte fill(int page, int offset) {
        return (byte) (page * 31 + offset * 5 + 7);
    }

    /** The bytes of a segment walk, in order. */
    static byte[] bytesOf(Iterable<BioVec> segments) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (BioVec bv : segments) {
            out.write(bv.bvPage.data, bv.bvOffset, bv.bvLen);
        }
        return out.toByteArray();
    }

    /** A seeded random schedule: random runnable task at every point, random data choices. */
    static Strategy random(long seed) {
        return kmodel.kernel.sched.Run.seededRandom(seed);
    }
}
