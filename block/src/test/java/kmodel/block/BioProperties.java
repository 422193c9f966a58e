package kmodel.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Run;
import kmodel.mm.Page;
import kmodel.mm.PageAllocator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Clones, trims and splits against a reference: the parent's bytes are the concatenation of the
 * ranges added with {@code bio_add_page()}, computed without the model; every window the model
 * produces must iterate exactly the corresponding slice, and {@link BioChecks} must hold
 * throughout. Each property has an example beside it that runs its check clean and then fails it
 * under a {@link BlockBugs} mutation.
 */
class BioProperties {
    /** Pages in the pool the ranges are drawn from (small, so that ranges meet and merge). */
    static final int POOL = 3;

    /* The byte checks by their messages: the examples below name the one a mutation must fail. */
    static final String TRIMMED_CLONE_BYTES = "the trimmed clone iterates its window";
    static final String SPLIT_REMAINDER_BYTES = "the remainder iterates the sectors after the split";
    static final String PARTIAL_COPY_BYTES = "the partial copy holds the trimmed clone's bytes";
    static final String NESTED_CLONE_BYTES = "the inner clone iterates the nested window";

    /** Two whole pages: bvecs of 8 sectors, so a window starting at sector 3 starts mid-bvec. */
    static final List<Range> TWO_PAGES = List.of(new Range(0, 0, Page.PAGE_SIZE, false),
            new Range(1, 0, Page.PAGE_SIZE, false));

    /** One {@code bio_add_page()} call: page, offset, length; {@code contiguous} continues the last range. */
    static final class Range {
        final int page;
        final int offset;
        final int len;
        final boolean contiguous;

        Range(int page, int offset, int len, boolean contiguous) {
            this.page = page;
            this.offset = offset;
            this.len = len;
            this.contiguous = contiguous;
        }

        @Override
        public String toString() {
            return (contiguous ? "+" : "") + "P" + page + "[" + offset + ",+" + len + ")";
        }
    }

    @Provide
    Arbitrary<List<Range>> ranges() {
        Arbitrary<Range> range = Combinators.combine(
                Arbitraries.integers().between(0, POOL - 1),
                Arbitraries.integers().between(0, 7).map(k -> k * 512).injectDuplicates(0.3)
                        .flatMap(off -> Arbitraries.integers().between(1, Page.PAGE_SIZE - off)
                                .map(len -> new int[] {off, len})),
                Arbitraries.of(true, false))
                .as((page, offLen, contiguous) -> new Range(page, offLen[0], offLen[1], contiguous));
        Arbitrary<Range> anyOffset = Combinators.combine(
                Arbitraries.integers().between(0, POOL - 1),
                Arbitraries.integers().between(0, Page.PAGE_SIZE - 1)
                        .flatMap(off -> Arbitraries.integers().between(1, Page.PAGE_SIZE - off)
                                .map(len -> new int[] {off, len})),
                Arbitraries.of(true, false))
                .as((page, offLen, contiguous) -> new Range(page, offLen[0], offLen[1], contiguous));
        return Arbitraries.oneOf(range, anyOffset).list().ofMinSize(1).ofMaxSize(10);
    }

    /** The ranges actually added: contiguous ones continue the previous range's page where it ended. */
    static List<int[]> resolve(List<Range> ranges) {
        List<int[]> out = new ArrayList<>();
        int total = 0;
        for (Range r : ranges) {
            int page = r.page;
            int off = r.offset;
            int len = r.len;
            if (r.contiguous && !out.isEmpty()) {
                int[] prev = out.get(out.size() - 1);
                if (prev[1] + prev[2] < Page.PAGE_SIZE) {
                    page = prev[0];
                    off = prev[1] + prev[2];
                    len = Math.min(len, Page.PAGE_SIZE - off);
                }
            }
            out.add(new int[] {page, off, len});
            total += len;
        }
        if (total < 2 * 512) {
            out.add(new int[] {0, 0, Page.PAGE_SIZE});
        }
        return out;
    }

    static byte content(int page, int offset) {
        return (byte) (page * 89 + offset * 7 + offset / 251);
    }

    /** The reference: the bytes the ranges describe, in order. */
    static byte[] reference(List<int[]> added) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int[] a : added) {
            for (int i = a[1]; i < a[1] + a[2]; i++) {
                out.write(content(a[0], i));
            }
        }
        return out.toByteArray();
    }

    /** {@code bio_trim(bio, offset, size)} as a body calls it, so a test can hand it a faulty one. */
    interface Trim {
        void trim(Bio bio, int offset, int size);
    }

    /** block/bio.c: {@code bio_trim()}. */
    static final Trim BIO_TRIM = BlockBio::bioTrim;

    /**
     * A faulty {@code bio_trim()} that loses the offset into the first bvec
     * ({@code bi_bvec_done}) after advancing to the window: a clone trimmed to a window that starts
     * mid-bvec then transfers the wrong bytes. It was the catalog's stand-in for seed 001
     * ({@code bio-trim-loses-bvec-done}) until issue 8 gave btrfs its own direct-I/O bug
     * ({@code btrfs-clone-first-bvec}); the checks below still show they catch it.
     */
    static final Trim LOSSY_TRIM = (bio, offset, size) -> {
        BlockBio.bioTrim(bio, offset, size);
        bio.biIter.biBvecDone = 0;
    };

    /** Builds the parent bio inside a task (pages kept alive by the test) and runs {@code body}. */
    interface WithParent {
        void run(BlockLayer layer, Bio parent, byte[] ref);
    }

    static void withParent(List<Range> ranges, WithParent body) {
        boolean[] merged = new boolean[1];
        ExecutionResult r = runWithParent(Kconfig.defaults(), ranges, body, merged);
        assertNull(r.violation(), () -> r.violation().summary() + (r.oops() != null ? " " + r.oops() : ""));
        // Statistics are collected on the property's thread, not inside the model task.
        Statistics.label("ranges merged into one bvec").collect(merged[0]);
    }

    /** Builds the parent and runs {@code body} in a task under {@code config}; the result says what failed. */
    static ExecutionResult runWithParent(Kconfig config, List<Range> ranges, WithParent body, boolean[] merged) {
        List<int[]> added = resolve(ranges);
        byte[] ref = reference(added);
        ExecutionResult r = Run.task(config, () -> {
            PageAllocator alloc = new PageAllocator();
            Page[] pool = new Page[POOL];
            for (int p = 0; p < POOL; p++) {
                pool[p] = alloc.allocPage();
                for (int i = 0; i < Page.PAGE_SIZE; i++) {
                    pool[p].data[i] = content(p, i);
                }
                Kernel.lifetimes().expect(pool[p], 1, "test page");
            }
            BlockLayer layer = new BlockLayer();
            Bio parent = BlockBio.bioAlloc(layer, added.size());
            for (int[] a : added) {
                assertEquals(a[2], BlockBio.bioAddPage(parent, pool[a[0]], a[2], a[1]));
            }
            merged[0] = parent.biVcnt < added.size();
            BioChecks.checkInvariants(parent);
            assertArrayEquals(ref, BlockTesting.bytesOf(Bio.bioForEachSegmentAll(parent)));
            body.run(layer, parent, ref);
            BlockBio.bioPut(parent);
        });
        return r;
    }

    static byte[] iterate(Bio bio) {
        return BlockTesting.bytesOf(Bio.bioForEachSegment(bio, new BvecIter()));
    }

    @Property(tries = 250, seed = "20170512")
    void aTrimmedFastCloneIteratesExactlyItsWindowOfTheParentsBytes(@ForAll("ranges") List<Range> ranges,
            @ForAll @IntRange(min = 0, max = 1 << 20) int a, @ForAll @IntRange(min = 0, max = 1 << 20) int b) {
        boolean[] midBvec = new boolean[1];
        withParent(ranges, trimmedWindow(a, b, midBvec));
        Statistics.label("window starts mid-bvec").collect(midBvec[0]);
    }

    /** The trimmed-clone check as a reusable body: the window's bytes, before and after completion. */
    static WithParent trimmedWindow(int a, int b, boolean[] midBvec) {
        return trimmedWindow(a, b, midBvec, BIO_TRIM);
    }

    static WithParent trimmedWindow(int a, int b, boolean[] midBvec, Trim trim) {
        return (layer, parent, ref) -> {
            int sectors = ref.length / 512;
            int off = a % sectors;
            int size = 1 + b % (sectors - off);
            Bio clone = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            trim.trim(clone, off, size);
            BioChecks.checkInvariants(clone);
            midBvec[0] = clone.biIter.biBvecDone != 0;
            byte[] window = Arrays.copyOfRange(ref, off * 512, (off + size) * 512);
            assertArrayEquals(window, iterate(clone), TRIMMED_CLONE_BYTES);
            BvecIter saved = clone.biIter.copy();
            BlockBio.bioAdvance(clone, clone.biIter.biSize);
            assertArrayEquals(window, BlockTesting.bytesOf(Bio.__bioForEachSegment(clone, new BvecIter(), saved)),
                    "the saved iter still yields the window after completion consumed bi_iter");
            BlockBio.bioPut(clone);
        };
    }

    /**
     * Runs a property's body on {@code ranges} without and with bug switch {@code bug}: clean
     * without it; with it, the check whose message is {@code check} fails (a check that cannot
     * fail proves nothing).
     */
    static void assertOnlyTheBugFailsTheCheck(String bug, List<Range> ranges, WithParent body, String check) {
        ExecutionResult clean = runWithParent(Kconfig.defaults(), ranges, body, new boolean[1]);
        assertNull(clean.violation(), () -> clean.violation().summary());
        ExecutionResult r = runWithParent(Kconfig.defaults().withBug(bug), ranges, body, new boolean[1]);
        assertNotNull(r.violation(), bug + " must be caught");
        assertTrue(r.oops() instanceof AssertionError && String.valueOf(r.oops().getMessage()).contains(check),
                () -> "expected the check '" + check + "' to fail, got: " + r.violation().summary());
    }

    /**
     * Runs a body built with the real {@code bio_trim()} and the same body built with a faulty one:
     * clean with the first; with the second, the check whose message is {@code check} fails.
     */
    static void assertOnlyTheFaultyTrimFailsTheCheck(List<Range> ranges, WithParent good, WithParent faulty, String check) {
        ExecutionResult clean = runWithParent(Kconfig.defaults(), ranges, good, new boolean[1]);
        assertNull(clean.violation(), () -> clean.violation().summary());
        ExecutionResult r = runWithParent(Kconfig.defaults(), ranges, faulty, new boolean[1]);
        assertNotNull(r.violation(), "the faulty bio_trim must be caught");
        assertTrue(r.oops() instanceof AssertionError && String.valueOf(r.oops().getMessage()).contains(check),
                () -> "expected the check '" + check + "' to fail, got: " + r.violation().summary());
    }

    /** The window check can fail: a bio_trim that loses bi_bvec_done is caught on a mid-bvec window. */
    @Example
    void theWindowCheckCatchesALossyTrim() {
        /* window from sector 3 (byte 1536, inside the first bvec) for 4 sectors */
        assertOnlyTheFaultyTrimFailsTheCheck(TWO_PAGES, trimmedWindow(3, 3, new boolean[1]),
                trimmedWindow(3, 3, new boolean[1], LOSSY_TRIM), TRIMMED_CLONE_BYTES);
    }

    /**
     * The window check catches catalog bug {@code bio-trim-relies-on-bi-vcnt} (bio_trim() in
     * md_trim_bio()'s pre-immutable form): a fast clone's window that starts past the parent's first
     * byte keeps the parent's place in the table.
     */
    @Example
    void theWindowCheckCatchesTheTrimThatReliesOnBiVcnt() {
        assertOnlyTheBugFailsTheCheck(BlockBugs.BIO_TRIM_RELIES_ON_BI_VCNT, TWO_PAGES, trimmedWindow(3, 3, new boolean[1]),
                TRIMMED_CLONE_BYTES);
    }

    @Property(tries = 250, seed = "20170513")
    void aSplitAndTheAdvancedParentTogetherIterateTheParentsBytes(@ForAll("ranges") List<Range> ranges,
            @ForAll @IntRange(min = 0, max = 1 << 20) int a) {
        withParent(ranges, split(a));
    }

    /** The split check as a reusable body. */
    static WithParent split(int a) {
        return (layer, parent, ref) -> {
            int sectors = parent.biIter.biSize / 512;
            if (sectors < 2 || parent.biIter.biSize % 512 != 0) {
                // bio_split() BUG_ONs unless 0 < sectors < bio_sectors(); trim to whole sectors first
                Bio whole = BlockBio.bioCloneFast(parent, layer.fsBioSet);
                BlockBio.bioTrim(whole, 0, sectors);
                checkSplit(layer, whole, Arrays.copyOf(ref, sectors * 512), a);
                BlockBio.bioPut(whole);
                return;
            }
            checkSplit(layer, parent, ref, a);
        };
    }

    /** The split check can fail: a bio_split() that moves only the remainder's sector and size. */
    @Example
    void theSplitCheckCatchesTheBioSplitMutation() {
        /* 16 sectors split after 1 + 5 % 15 = 6 */
        assertOnlyTheBugFailsTheCheck(BlockBugs.BIO_SPLIT_ADVANCES_SECTOR_ONLY, TWO_PAGES, split(5), SPLIT_REMAINDER_BYTES);
    }

    private static void checkSplit(BlockLayer layer, Bio bio, byte[] ref, int a) {
        int sectors = Bio.bioSectors(bio);
        if (sectors < 2) {
            return;
        }
        int at = 1 + a % (sectors - 1);
        long start = bio.biIter.biSector;
        Bio split = BlockBio.bioSplit(bio, at, layer.fsBioSet);
        BioChecks.checkInvariants(split);
        BioChecks.checkInvariants(bio);
        assertEquals(start + at, bio.biIter.biSector, "the remainder starts after the split");
        assertArrayEquals(Arrays.copyOfRange(ref, 0, at * 512), iterate(split), "the split iterates the first sectors");
        assertArrayEquals(Arrays.copyOfRange(ref, at * 512, ref.length), iterate(bio), SPLIT_REMAINDER_BYTES);
        BlockBio.bioPut(split);
    }

    @Property(tries = 200, seed = "20170514")
    void bioCloneBiosetPartialCopiesTheSameWindowAsATrimmedFastClone(@ForAll("ranges") List<Range> ranges,
            @ForAll @IntRange(min = 0, max = 1 << 20) int a, @ForAll @IntRange(min = 0, max = 1 << 20) int b) {
        withParent(ranges, partialCopy(a, b));
    }

    /** The partial-copy check as a reusable body. */
    static WithParent partialCopy(int a, int b) {
        return partialCopy(a, b, BIO_TRIM);
    }

    static WithParent partialCopy(int a, int b, Trim trim) {
        return (layer, parent, ref) -> {
            int sectors = ref.length / 512;
            int off = a % sectors;
            int size = 1 + b % (sectors - off);
            Bio fast = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            trim.trim(fast, off, size);
            Bio copy = BlockBio.bioCloneBiosetPartial(parent, layer.fsBioSet, off * 512, size * 512);
            BioChecks.checkInvariants(copy);
            assertEquals(Bio.bioSegments(fast), copy.biVcnt, "one bvec per segment of the window");
            assertEquals(fast.biIter.biSector, copy.biIter.biSector);
            assertArrayEquals(iterate(fast), BlockTesting.bytesOf(Bio.bioForEachSegmentAll(copy)), PARTIAL_COPY_BYTES);
            BlockBio.bioPut(fast);
            BlockBio.bioPut(copy);
        };
    }

    /**
     * The partial-copy check can fail: with a lossy bio_trim the trimmed clone of a window that
     * starts mid-bvec no longer holds the bytes bio_clone_bioset_partial() copies.
     */
    @Example
    void thePartialCopyCheckCatchesALossyTrim() {
        /* window from sector 3 for 4 sectors, as above */
        assertOnlyTheFaultyTrimFailsTheCheck(TWO_PAGES, partialCopy(3, 3), partialCopy(3, 3, LOSSY_TRIM), PARTIAL_COPY_BYTES);
    }

    @Property(tries = 200, seed = "20170515")
    void aCloneOfATrimmedCloneTrimmedAgainIteratesTheNestedWindow(@ForAll("ranges") List<Range> ranges,
            @ForAll @IntRange(min = 0, max = 1 << 20) int a, @ForAll @IntRange(min = 0, max = 1 << 20) int b,
            @ForAll @IntRange(min = 0, max = 1 << 20) int c, @ForAll @IntRange(min = 0, max = 1 << 20) int d) {
        withParent(ranges, nestedWindow(a, b, c, d));
    }

    /** The nested-window check as a reusable body. */
    static WithParent nestedWindow(int a, int b, int c, int d) {
        return nestedWindow(a, b, c, d, BIO_TRIM);
    }

    static WithParent nestedWindow(int a, int b, int c, int d, Trim trim) {
        return (layer, parent, ref) -> {
            int sectors = ref.length / 512;
            int off1 = a % sectors;
            int size1 = 1 + b % (sectors - off1);
            Bio outer = BlockBio.bioCloneFast(parent, layer.fsBioSet);
            trim.trim(outer, off1, size1);
            int off2 = c % size1;
            int size2 = 1 + d % (size1 - off2);
            Bio inner = BlockBio.bioCloneFast(outer, layer.fsBioSet);
            trim.trim(inner, off2, size2);
            BioChecks.checkInvariants(inner);
            assertEquals(parent, inner.ioVecOwner(), "the table still belongs to the first parent");
            int from = (off1 + off2) * 512;
            assertArrayEquals(Arrays.copyOfRange(ref, from, from + size2 * 512), iterate(inner), NESTED_CLONE_BYTES);
            BlockBio.bioPut(inner);
            BlockBio.bioPut(outer);
        };
    }

    /**
     * The nested-window check can fail: with a lossy bio_trim the outer clone, trimmed to a
     * window that starts mid-bvec, loses its offset, and the inner one inherits the error.
     */
    @Example
    void theNestedWindowCheckCatchesALossyTrim() {
        /* outer window: sector 3 for 1 + 9 % 13 = 10 sectors; inner: its sector 2 for 1 + 3 % 8 = 4 */
        assertOnlyTheFaultyTrimFailsTheCheck(TWO_PAGES, nestedWindow(3, 9, 2, 3), nestedWindow(3, 9, 2, 3, LOSSY_TRIM),
                NESTED_CLONE_BYTES);
    }
}
