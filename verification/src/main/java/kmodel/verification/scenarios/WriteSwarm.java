package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import kmodel.mm.Page;
import kmodel.mm.PageCache;
import kmodel.mm.PageWriteback;
import kmodel.verification.world.Scenario;

/**
 * The write-side swarm: a file on a block device ({@link WriteWorld}) with pages cached clean or
 * dirty, some under writeback (their bios in flight, ending in interrupt context at any point)
 * and maybe one pinned (a reference held from set-up, as a direct read's
 * {@code get_user_pages()} holds it); tasks write, read, flush, fsync and truncate.
 *
 * <pre>
 * write pages=1 ra=0 clean=- dirty=0 wb=0 pin=- t0=write(0),fsync
 * </pre>
 *
 * Fields: {@code pages} 1-2; {@code ra} 0-1; {@code clean}, {@code dirty} pages cached at the
 * start (dirty ones hold {@code v1}); {@code wb} dirty pages whose writeback is under way;
 * {@code pin} at most one cached page pinned. Operations: {@code write(p)} (the page's next
 * version: {@code v1}, {@code v2}, ... in the recipe's order), {@code read(p)} (from page p to the
 * end), {@code flush} ({@code filemap_flush()}), {@code fdatawrite}, {@code fdatawait},
 * {@code fsync} ({@code filemap_write_and_wait()} with the data-integrity check),
 * {@code trunc(n)} (to n pages), {@code unpin} (the pin's direct read completes:
 * {@code set_page_dirty_lock()}, {@code put_page()}).
 *
 * <p>Well-formed: {@code clean} and {@code dirty} disjoint, {@code wb} within {@code dirty},
 * {@code pin} cached; each page written by one task only (so its versions have one order);
 * at most one {@code trunc}, and not with a {@code write} (a write racing truncation may extend
 * the file again, which the data checks do not follow); {@code unpin} exactly once when a page is
 * pinned, else never. fsync checks its promise (each page dirty when it was called is on the
 * device at that version or newer) except in a recipe with {@code trunc}, where fsync promises
 * nothing for the truncated pages. At the end: {@link WriteWorld#check}.
 */
final class WriteSwarm extends SwarmKind {
    private static final String[] ORDER = {"d", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"};

    @Override
    public String name() {
        return "write";
    }

    @Override
    List<Field> fields() {
        return Arrays.asList(Field.num("pages", 1, 2), Field.num("ra", 0, 1), Field.list("clean", 2),
                Field.list("dirty", 2), Field.list("wb", 2), Field.list("pin", 1));
    }

    @Override
    Map<String, Boolean> ops() {
        Map<String, Boolean> m = new LinkedHashMap<>();
        m.put("write", true);
        m.put("read", true);
        m.put("flush", false);
        m.put("fdatawrite", false);
        m.put("fdatawait", false);
        m.put("fsync", false);
        m.put("trunc", true);
        m.put("unpin", false);
        return m;
    }

    @Override
    String exampleOp() {
        return "write(0)";
    }

    @Override
    void validate(KindRecipe r) {
        int pages = r.num("pages");
        for (String f : new String[] {"clean", "dirty", "wb", "pin"}) {
            pagesBelow(r, f, pages);
        }
        for (int p : r.list("clean")) {
            if (r.list("dirty").contains(p)) {
                throw KindRecipe.bad("page " + p + " is both clean and dirty");
            }
        }
        for (int p : r.list("wb")) {
            if (!r.list("dirty").contains(p)) {
                throw KindRecipe.bad("wb page " + p + " is not dirty (only a dirty page is written back at set-up)");
            }
        }
        for (int p : r.list("pin")) {
            if (!r.list("dirty").contains(p) && !r.list("clean").contains(p)) {
                throw KindRecipe.bad("pin page " + p + " is not cached");
            }
        }
        int[] writer = new int[pages];
        Arrays.fill(writer, -1);
        int truncs = 0;
        int unpins = 0;
        int writes = 0;
        for (int i = 0; i < r.tasks().size(); i++) {
            for (KindRecipe.Op op : r.tasks().get(i)) {
                if (op.name.equals("write") || op.name.equals("read")) {
                    if (op.arg >= pages) {
                        throw KindRecipe.bad("t" + i + ": " + op + " names page " + op.arg + " of " + pages);
                    }
                }
                if (op.name.equals("write")) {
                    writes++;
                    if (writer[op.arg] >= 0 && writer[op.arg] != i) {
                        throw KindRecipe.bad("t" + i + ": " + op + ": page " + op.arg + " is written by t" + writer[op.arg]
                                + " too (one writer per page)");
                    }
                    writer[op.arg] = i;
                } else if (op.name.equals("trunc")) {
                    truncs++;
                    if (op.arg >= pages) {
                        throw KindRecipe.bad("t" + i + ": " + op + " must shrink the file (below " + pages + " pages)");
                    }
                } else if (op.name.equals("unpin")) {
                    unpins++;
                }
            }
        }
        if (writes + 1 + r.list("dirty").size() > ORDER.length) {
            throw KindRecipe.bad("more than " + (ORDER.length - 2) + " writes");
        }
        if (truncs > 1) {
            throw KindRecipe.bad("more than one trunc");
        }
        if (truncs > 0 && r.has("read") && r.list("clean").size() + r.list("dirty").size() < pages) {
            /*
             * Truncation racing a read's completion is the model's own finding, not a recipe to
             * draw (end_request()'s unlock_page() holds no page reference; see SwarmGenerator).
             */
            throw KindRecipe.bad("trunc and read in one recipe need every page cached at the start (no read I/O to race)");
        }
        if (truncs > 0 && writes > 0) {
            throw KindRecipe.bad("trunc and write in one recipe (a write racing truncation may extend the file)");
        }
        if (unpins != r.list("pin").size()) {
            throw KindRecipe.bad(r.list("pin").isEmpty() ? "unpin without a pin" : "the pinned page needs exactly one unpin");
        }
    }

    @Override
    public KindRecipe generate(long seed) {
        Random rnd = new Random(seed);
        boolean writes = rnd.nextBoolean();
        boolean trunc = !writes || rnd.nextInt(3) == 0;
        if (trunc && writes) {
            writes = false;
        }
        boolean reads = rnd.nextBoolean();
        boolean fsync = rnd.nextBoolean();
        boolean flushes = rnd.nextBoolean();
        boolean wbAtStart = rnd.nextBoolean();
        boolean pin = rnd.nextInt(3) == 0;
        int pages = 1 + rnd.nextInt(2);
        int ra = rnd.nextInt(3) == 0 ? 1 : 0;
        List<Integer> clean = new ArrayList<>();
        List<Integer> dirty = new ArrayList<>();
        for (int p = 0; p < pages; p++) {
            int c = rnd.nextInt(3);
            if (c == 1) {
                clean.add(p);
            } else if (c == 2) {
                dirty.add(p);
            }
        }
        List<Integer> wb = new ArrayList<>();
        if (wbAtStart) {
            for (int p : dirty) {
                if (rnd.nextBoolean()) {
                    wb.add(p);
                }
            }
        }
        List<Integer> cached = new ArrayList<>(clean);
        cached.addAll(dirty);
        List<Integer> pinned = new ArrayList<>();
        if (pin && !cached.isEmpty()) {
            pinned.add(cached.get(rnd.nextInt(cached.size())));
        }
        List<String> choices = new ArrayList<>();
        if (writes) {
            choices.add("write");
        }
        if (reads) {
            choices.add("read");
        }
        if (fsync) {
            choices.add("fsync");
        }
        if (flushes) {
            choices.addAll(Arrays.asList("flush", "fdatawrite", "fdatawait"));
        }
        if (choices.isEmpty()) {
            choices.add("fsync");
        }
        int nTasks = 1 + rnd.nextInt(2) + (wb.isEmpty() ? rnd.nextInt(2) : 0);
        List<List<KindRecipe.Op>> tasks = new ArrayList<>();
        for (int t = 0; t < nTasks; t++) {
            List<KindRecipe.Op> ops = new ArrayList<>();
            int n = 1 + rnd.nextInt(2);
            for (int k = 0; k < n; k++) {
                String c = choices.get(rnd.nextInt(choices.size()));
                int arg = -1;
                if (c.equals("read")) {
                    arg = rnd.nextInt(pages);
                } else if (c.equals("write")) {
                    arg = t; /* one writer per page: task i writes page i */
                    if (t >= pages) {
                        c = "fsync";
                        arg = -1;
                    }
                }
                ops.add(new KindRecipe.Op(c, arg));
            }
            tasks.add(ops);
        }
        if (trunc) {
            List<KindRecipe.Op> ops = tasks.get(rnd.nextInt(tasks.size()));
            ops.add(rnd.nextInt(ops.size() + 1), new KindRecipe.Op("trunc", rnd.nextInt(pages)));
        }
        if (trunc && reads && cached.size() < pages) {
            for (List<KindRecipe.Op> ops : tasks) {
                ops.removeIf(o -> o.name.equals("read"));
                if (ops.isEmpty()) {
                    ops.add(new KindRecipe.Op("fsync", -1));
                }
            }
        }
        if (!pinned.isEmpty()) {
            List<KindRecipe.Op> ops = tasks.get(rnd.nextInt(tasks.size()));
            ops.add(new KindRecipe.Op("unpin", -1));
        }
        Map<String, String> head = new LinkedHashMap<>();
        head.put("pages", "" + pages);
        head.put("ra", "" + ra);
        head.put("clean", KindRecipe.listText(clean));
        head.put("dirty", KindRecipe.listText(dirty));
        head.put("wb", KindRecipe.listText(wb));
        head.put("pin", KindRecipe.listText(pinned));
        return new KindRecipe(this, head, tasks);
    }

    @Override
    public Scenario<?> scenario(KindRecipe r) {
        return Scenario.<SwarmWriteWorld>named(SwarmScenarios.PREFIX + r, "write-side swarm recipe")
                .setup(() -> new SwarmWriteWorld(r))
                .tasks((w, s) -> {
                    for (int i = 0; i < r.tasks().size(); i++) {
                        final int t = i;
                        s.task("t" + i, () -> w.run(t));
                    }
                })
                .atEnd(w -> w.w.check())
                .outcome(w -> w.w.outcome())
                .build();
    }

    /** The write world of a recipe, and each page's next write version. */
    static final class SwarmWriteWorld {
        final KindRecipe r;
        final WriteWorld w;
        /** Per page, the version its next write writes (one writer per page, so no race on it). */
        private final int[] next;
        private final boolean truncates;

        SwarmWriteWorld(KindRecipe r) {
            this.r = r;
            int pages = r.num("pages");
            w = new WriteWorld(pages, pages, r.num("ra"));
            next = new int[pages];
            Arrays.fill(next, 1);
            for (int p = 0; p < pages; p++) {
                if (r.list("clean").contains(p)) {
                    w.cached(p, -1);
                } else if (r.list("dirty").contains(p)) {
                    w.cached(p, 1);
                    next[p] = 2;
                }
            }
            for (int p : r.list("wb")) {
                w.writingBack(p);
            }
            for (int p : r.list("pin")) {
                w.pinned = PageCache.findGetPage(w.mapping(), p);
            }
            truncates = r.has("trunc");
        }

        void run(int t) {
            for (KindRecipe.Op op : r.tasks().get(t)) {
                switch (op.name) {
                    case "write":
                        w.write(op.arg, next[op.arg]++);
                        break;
                    case "read":
                        w.read(op.arg, r.num("pages") - op.arg);
                        break;
                    case "flush":
                        w.flush();
                        break;
                    case "fdatawrite":
                        w.fdatawrite();
                        break;
                    case "fdatawait":
                        w.fdatawait();
                        break;
                    case "fsync":
                        w.fsync(truncates ? 0 : r.num("pages"), ORDER);
                        break;
                    case "trunc":
                        w.truncate(op.arg);
                        break;
                    case "unpin":
                        PageWriteback.setPageDirtyLock(w.pinned);
                        Page.putPage(w.pinned);
                        break;
                    default:
                        throw new IllegalStateException("write swarm: " + op);
                }
            }
        }
    }
}
