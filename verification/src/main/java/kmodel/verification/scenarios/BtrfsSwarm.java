package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.fs.btrfs.BtrfsPunchHole;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.fs.btrfs.FileExtentItem;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Completion;
import kmodel.mm.File;
import kmodel.mm.Page;
import kmodel.sim.world.BtrfsReads;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;

/**
 * The btrfs swarm: a file whose extent layout mixes regular, compressed and shared compressed
 * (a reflink of the end of the compressed extent before it) extents and holes, on a SINGLE or
 * RAID1 volume whose mirrors may each have corrupt blocks (never both copies of one block), read
 * by 1-3 readers with read-ahead, after an optional hole punch, under each
 * {@code BTRFS_READPAGES} form and with a failing {@code btrfs_bio_alloc()}.
 *
 * <pre>
 * btrfs prof=raid1 layout=rrr ra=3 bad1=0 bad2=1 rp=3 allocfail=0 maps=0 t0=read(0)
 * </pre>
 *
 * Fields: {@code prof} {@code single|raid1}; {@code layout} one letter a page (1-4 pages):
 * {@code r} regular, {@code c} compressed (a run of them is one extent, of 2 or 4 pages), {@code s} shared (a run
 * is a reflink of as many last pages of the compressed extent before it), {@code h} hole;
 * {@code ra} read-ahead pages 0-4; {@code bad1}, {@code bad2} regular pages corrupt on mirror 1,
 * 2 (RAID1 only, disjoint); {@code rp} {@code BTRFS_READPAGES} 0-3; {@code allocfail}
 * {@code BTRFS_BIO_ALLOC_FAIL} 0-3; {@code maps} 1: the extent maps cached at set-up (the page
 * cache empty). Operations: {@code read(p)} (pages p to the end, every byte required),
 * {@code readp(p)} (page p), {@code punch(p)} ({@code btrfs_punch_hole()} of page p).
 *
 * <p>Well-formed: punches only at the start of t0 (the model has no extent-state locking, so a
 * punch must not race reads: the other tasks wait for t0's punches first); every block has a
 * good copy, so every read returns all its bytes and read repair never gives up on a page
 * ({@code bug-on} otherwise, as in {@code btrfs-raid1-bad-mirror}). At the end:
 * {@link BtrfsVolume#checkAtEnd()} (references, page cache against the file's bytes, queues).
 * Not drawn yet: inline and prealloc extents, RAID0, direct I/O ({@code BTRFS_DIO_CLONE}),
 * layouts long enough to cross the 16-page pagepool batch.
 */
final class BtrfsSwarm extends SwarmKind {
    private static final int PAGE = Page.PAGE_SIZE;
    private static final int MAX_PAGES = 4;

    @Override
    public String name() {
        return "btrfs";
    }

    @Override
    List<Field> fields() {
        return Arrays.asList(Field.word("prof", "single", "raid1"), Field.letters("layout", "rcsh", MAX_PAGES),
                Field.num("ra", 0, 4), Field.list("bad1", MAX_PAGES), Field.list("bad2", MAX_PAGES),
                Field.num("rp", 0, 3), Field.num("allocfail", 0, 3), Field.num("maps", 0, 1));
    }

    @Override
    Map<String, Boolean> ops() {
        Map<String, Boolean> m = new LinkedHashMap<>();
        m.put("read", true);
        m.put("readp", true);
        m.put("punch", true);
        return m;
    }

    @Override
    String exampleOp() {
        return "read(0)";
    }

    @Override
    void validate(KindRecipe r) {
        String layout = r.word("layout");
        int pages = layout.length();
        for (String f : new String[] {"bad1", "bad2"}) {
            pagesBelow(r, f, pages);
            for (int p : r.list(f)) {
                if (!r.word("prof").equals("raid1")) {
                    throw KindRecipe.bad(f + " needs prof=raid1 (a SINGLE volume has no good copy to repair from)");
                }
                if (layout.charAt(p) != 'r') {
                    throw KindRecipe.bad(f + " page " + p + " is not a regular extent's ('" + layout.charAt(p) + "')");
                }
            }
        }
        for (int p : r.list("bad1")) {
            if (r.list("bad2").contains(p)) {
                throw KindRecipe.bad("page " + p + " is bad on both mirrors (every block must have a good copy)");
            }
        }
        for (int i = 0; i < layout.length(); i++) {
            if (layout.charAt(i) == 'c' && (i == 0 || layout.charAt(i - 1) != 'c')) {
                int j = i;
                while (j < layout.length() && layout.charAt(j) == 'c') {
                    j++;
                }
                if ((j - i) % 2 != 0) {
                    throw KindRecipe.bad("layout: a compressed run must be an even number of pages (stored in half: whole sectors)");
                }
            }
            if (layout.charAt(i) == 's') {
                int run = 0;
                int j = i;
                while (j < layout.length() && layout.charAt(j) == 's') {
                    j++;
                    run++;
                }
                int k = i - 1;
                while (k >= 0 && layout.charAt(k) != 'c') {
                    k--;
                }
                int comp = 0;
                while (k >= 0 && layout.charAt(k) == 'c') {
                    k--;
                    comp++;
                }
                if (comp < run) {
                    throw KindRecipe.bad("layout: a run of " + run + " 's' needs a compressed run of at least as many pages before it");
                }
                i = j - 1;
            }
        }
        if (layout.indexOf('s') >= 0 && r.num("rp") != 3) {
            /*
             * Seed 000's loops (BTRFS_READPAGES 0-2) have no prev_em_start: a shared compressed
             * extent read after its source in one bio reads zeros (005efedf2c7d, fixed in v4.14;
             * btrfs-compressed-shared). A known failure of those forms, not drawn.
             */
            throw KindRecipe.bad("layout with 's' needs rp=3 (seed 000's loops corrupt shared compressed extents, 005efedf2c7d)");
        }
        for (int t = 0; t < r.tasks().size(); t++) {
            boolean reading = false;
            for (KindRecipe.Op op : r.tasks().get(t)) {
                if (op.arg >= pages) {
                    throw KindRecipe.bad("t" + t + ": " + op + " names page " + op.arg + " of " + pages);
                }
                if (op.name.equals("punch")) {
                    if (t != 0 || reading) {
                        throw KindRecipe.bad("t" + t + ": " + op + ": punches only at the start of t0 (no extent-state locking)");
                    }
                } else {
                    reading = true;
                }
            }
        }
    }

    @Override
    public KindRecipe generate(long seed) {
        Random rnd = new Random(seed);
        boolean raid1 = rnd.nextInt(3) == 0;
        boolean compressed = rnd.nextBoolean();
        boolean holes = rnd.nextInt(3) == 0;
        boolean punch = rnd.nextInt(4) == 0;
        int pages = 1 + rnd.nextInt(MAX_PAGES);
        StringBuilder layout = new StringBuilder();
        boolean comp = false;
        while (layout.length() < pages) {
            List<String> c = new ArrayList<>();
            c.add("r");
            if (compressed && pages - layout.length() >= 2) {
                c.add("cc");
            }
            if (compressed && comp) {
                c.add("s");
            }
            if (holes) {
                c.add("h");
            }
            String pick = c.get(rnd.nextInt(c.size()));
            comp |= pick.equals("cc");
            layout.append(pick);
        }
        String lay = layout.toString();
        List<Integer> bad1 = new ArrayList<>();
        List<Integer> bad2 = new ArrayList<>();
        if (raid1) {
            for (int p = 0; p < pages; p++) {
                if (lay.charAt(p) == 'r') {
                    int b = rnd.nextInt(3);
                    if (b == 1) {
                        bad1.add(p);
                    } else if (b == 2) {
                        bad2.add(p);
                    }
                }
            }
        }
        int ra = rnd.nextInt(3) == 0 ? 0 : pages;
        int rp = lay.indexOf('s') >= 0 ? 3 : rnd.nextInt(4);
        int allocfail = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(3) : 0;
        int maps = punch ? 1 : rnd.nextInt(4) == 0 ? 1 : 0;
        int nTasks = 1 + rnd.nextInt(2);
        List<List<KindRecipe.Op>> tasks = new ArrayList<>();
        for (int t = 0; t < nTasks; t++) {
            List<KindRecipe.Op> ops = new ArrayList<>();
            if (t == 0 && punch) {
                /* between a compressed extent and its reflink, where prev_em_start matters, when there is one */
                int before = lay.indexOf('s') - 1;
                boolean between = before > 0 && lay.charAt(before) != 'c' && lay.charAt(before) != 's';
                ops.add(new KindRecipe.Op("punch", between && rnd.nextBoolean() ? before : rnd.nextInt(pages)));
            }
            int p = rnd.nextInt(pages);
            ops.add(new KindRecipe.Op(rnd.nextBoolean() ? "read" : "readp", p));
            tasks.add(ops);
        }
        Map<String, String> head = new LinkedHashMap<>();
        head.put("prof", raid1 ? "raid1" : "single");
        head.put("layout", lay);
        head.put("ra", "" + Math.min(ra, 4));
        head.put("bad1", KindRecipe.listText(bad1));
        head.put("bad2", KindRecipe.listText(bad2));
        head.put("rp", "" + rp);
        head.put("allocfail", "" + allocfail);
        head.put("maps", "" + maps);
        return new KindRecipe(this, head, tasks);
    }

    @Override
    public Scenario<?> scenario(KindRecipe r) {
        return Scenario.<World>named(SwarmScenarios.PREFIX + r, "btrfs swarm recipe")
                .set(BtrfsOptions.BTRFS_READPAGES, r.num("rp"))
                .set(BtrfsOptions.BTRFS_BIO_ALLOC_FAIL, r.num("allocfail"))
                .setup(() -> new World(r))
                .tasks((w, s) -> {
                    for (int i = 0; i < r.tasks().size(); i++) {
                        final int t = i;
                        s.task("t" + i, () -> w.run(t));
                    }
                })
                .atEnd(World::check)
                .outcome(World::outcome)
                .build();
    }

    /** One execution's world: the volume, the file, one open file per task. */
    static final class World {
        private final KindRecipe r;
        private final BtrfsVolume vol;
        private final BtrfsInode inode;
        private final File[] files;
        private final boolean punches;
        /** Completed by t0 after its punches (when the recipe punches). */
        private final Completion punched = new Completion("punched");
        private final Map<String, List<String>> results = new java.util.TreeMap<>();

        World(KindRecipe r) {
            this.r = r;
            String layout = r.word("layout");
            vol = BtrfsVolume.mkfs(r.word("prof").equals("raid1") ? BtrfsVolume.Profile.RAID1 : BtrfsVolume.Profile.SINGLE,
                    false);
            BtrfsVolume.FileBuilder b = vol.file("f");
            FileExtentItem lastComp = null;
            long lastCompLen = 0;
            int i = 0;
            while (i < layout.length()) {
                char ch = layout.charAt(i);
                int j = i;
                while (j < layout.length() && layout.charAt(j) == ch) {
                    j++;
                }
                long off = (long) i * PAGE;
                long len = (long) (j - i) * PAGE;
                switch (ch) {
                    case 'r':
                        b.regular(off, len);
                        break;
                    case 'c':
                        lastComp = b.compressed(off, len);
                        lastCompLen = len;
                        break;
                    case 's':
                        b.reflink(off, lastComp, lastCompLen - len, len);
                        break;
                    default:
                        b.hole(off, len);
                        break;
                }
                i = j;
            }
            b.size((long) layout.length() * PAGE);
            inode = b.create();
            for (int p : r.list("bad1")) {
                vol.corrupt(vol.logicalOf(inode, (long) p * PAGE + 7), 1);
            }
            for (int p : r.list("bad2")) {
                vol.corrupt(vol.logicalOf(inode, (long) p * PAGE + 7), 2);
            }
            if (r.num("maps") == 1) {
                vol.cacheExtentMaps(inode);
            }
            files = new File[r.tasks().size()];
            for (int t = 0; t < files.length; t++) {
                files[t] = vol.open(inode, "f.t" + t, r.num("ra"));
            }
            punches = r.has("punch");
        }

        void run(int t) {
            boolean completed = !(t == 0 && punches);
            boolean waited = t == 0 || !punches;
            for (KindRecipe.Op op : r.tasks().get(t)) {
                if (op.name.equals("punch")) {
                    BtrfsPunchHole.btrfsPunchHole(inode, (long) op.arg * PAGE, PAGE);
                    continue;
                }
                if (!completed) {
                    Completion.complete(punched);
                    completed = true;
                }
                if (!waited) {
                    Completion.waitForCompletionIo(punched);
                    waited = true;
                }
                long pos = (long) op.arg * PAGE;
                int len = op.name.equals("read") ? (r.word("layout").length() - op.arg) * PAGE : PAGE;
                long ret = BtrfsReads.readAndCheck(files[t], inode, pos, len, results);
                if (ret != len) {
                    Kernel.fail(ViolationKind.DATA_CORRUPTION, "t" + t + ": read(" + pos + ", " + len + ") = "
                            + Errno.name(ret) + ", the file has every byte (every block has a good copy)");
                }
            }
            if (!completed) {
                Completion.complete(punched);
            }
        }

        void check() {
            vol.checkAtEnd();
            if (vol.fsInfo.stats.pageErrors != 0 && r.num("allocfail") == 0) {
                Kernel.fail(ViolationKind.BUG_ON, "read repair gave up on " + vol.fsInfo.stats.pageErrors
                        + " page(s) although every block has a good copy (" + vol.fsInfo.stats + ")");
            }
        }

        String outcome() {
            StringBuilder sb = new StringBuilder();
            results.forEach((task, rs) -> sb.append(task).append('=').append(Texts.join(",", rs)).append(' '));
            return sb.append("pages/bio ").append(vol.fsInfo.stats.pagesPerBio()).toString();
        }
    }
}
