package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import kmodel.block.DiskKind;
import kmodel.fs.blockdev.Bdev;
import kmodel.fs.btrfs.BtrfsInode;
import kmodel.fs.btrfs.BtrfsReadIter;
import kmodel.fs.btrfs.BtrfsVolume;
import kmodel.iouring.IoFd;
import kmodel.iouring.IoUringExit;
import kmodel.iouring.IoUringOptions;
import kmodel.iouring.IoUringSqe;
import kmodel.iouring.Liburing;
import kmodel.kernel.Errno;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.mm.File;
import kmodel.mm.FilemapRead;
import kmodel.mm.IovIter;
import kmodel.mm.Kiocb;
import kmodel.mm.MmOptions;
import kmodel.mm.Page;
import kmodel.sim.world.ReadWorld;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;

/**
 * The io_uring swarm: rings on a block device's file or on a btrfs file (whose
 * {@code ->read_iter} is v5.10's {@code btrfs_file_read_iter()}, {@link BtrfsReadIter}), reads
 * with and without {@code RWF_NOWAIT}, {@code IORING_OP_READ} and {@code READV}, reads spanning
 * two pages (short first attempts, retried with {@code bytes_done}), plain {@code read(2)}s
 * racing them, reaping, ring close and task exit at any point, one or two rings, each device
 * kind, the v5.9 and v5.10 read paths, {@code plug->nowait} on and off, the series on and off.
 *
 * <pre>
 * uring file=bdev dev=nowait pages=1 tags=1 ra=0 cached=- path=510 plug=0 series=1 t0=read(0),exit
 * </pre>
 *
 * Fields: {@code file} {@code bdev|btrfs}; {@code dev} {@code nowait|nonowait|again} (the
 * device's {@link DiskKind}; btrfs: {@code nowait} only); {@code pages} 1-3; {@code tags} request
 * tags 1-2; {@code ra} read-ahead pages 0-2; {@code cached} pages cached at the start (block
 * device only); {@code path} {@code 510|59} ({@code READ_PATH_V59}); {@code plug}
 * ({@code IO_URING_PLUG_NOWAIT}); {@code series} ({@code 0}: {@code ASYNC_BUFFERED_READS=n} and
 * {@code READAHEAD_NOWAIT=n}, reads punted to io-wq). Operations: {@code read(p)},
 * {@code readv(p)}, {@code nowait(p)} ({@code RWF_NOWAIT}), {@code span(p)} (a page's length at
 * the middle of page p), each queued and submitted at once on the task's ring (set up at its
 * first ring operation, 4 entries); {@code reap(n)} ({@code io_uring_wait_cqe_nr}); {@code close};
 * {@code exit} ({@code do_exit()}); {@code pread(p)} (a plain {@code read(2)}).
 *
 * <p>Well-formed: a task with a ring operation ends with {@code exit}, with at most one
 * {@code close} before it and no ring operation between them; at most 4 reads per ring; a reap
 * never waits for more CQEs than it has reads outstanding; {@code span(p)} needs page {@code p+1};
 * {@code pread} only in a task without a ring; {@code close} and {@code exit} after a read (which
 * sets the ring up). At the end: every SQE has exactly one CQE whose
 * {@code res} is the length, or {@code -ECANCELED} for a read its task may not have reaped before
 * exiting, or, under {@code RWF_NOWAIT}, {@code -EAGAIN} or a short count; the bytes read are the
 * file's; every ring freed; the page cache's and the device's end checks.
 */
final class UringSwarm extends SwarmKind {
    private static final int PAGE = Page.PAGE_SIZE;
    private static final int RING_ENTRIES = 4;

    @Override
    public String name() {
        return "uring";
    }

    /** 2,000: a ring's world runs at a few hundred executions a second on these machines. */
    @Override
    long defaultBudget() {
        return 2_000;
    }

    @Override
    List<Field> fields() {
        return Arrays.asList(Field.word("file", "bdev", "btrfs"), Field.word("dev", "nowait", "nonowait", "again"),
                Field.num("pages", 1, 3), Field.num("tags", 1, 2), Field.num("ra", 0, 2), Field.list("cached", 3),
                Field.word("path", "510", "59"), Field.num("plug", 0, 1), Field.num("series", 0, 1));
    }

    @Override
    Map<String, Boolean> ops() {
        Map<String, Boolean> m = new LinkedHashMap<>();
        for (String op : new String[] {"read", "readv", "nowait", "span", "reap", "pread"}) {
            m.put(op, true);
        }
        m.put("close", false);
        m.put("exit", false);
        return m;
    }

    @Override
    String exampleOp() {
        return "read(0)";
    }

    private static boolean ringRead(String op) {
        return op.equals("read") || op.equals("readv") || op.equals("nowait") || op.equals("span");
    }

    @Override
    void validate(KindRecipe r) {
        int pages = r.num("pages");
        pagesBelow(r, "cached", pages);
        if (r.word("file").equals("btrfs")) {
            if (!r.word("dev").equals("nowait")) {
                throw KindRecipe.bad("dev=" + r.word("dev") + " is a block device's kind (file=btrfs has dev=nowait)");
            }
            if (!r.list("cached").isEmpty()) {
                throw KindRecipe.bad("cached pages are drawn for file=bdev only");
            }
        }
        if (findsTagFinding(r.word("file"), r.word("dev"), r.num("tags"), r.num("plug"), r.num("series"), ioOps(r))) {
            throw KindRecipe.bad("tags=1 with more than one read on a nowait device needs plug=1 or series=0 (otherwise "
                    + "it is the model's finding finding-uring-nowait-issue-sleeps-on-tag)");
        }
        for (int i = 0; i < r.tasks().size(); i++) {
            String t = "t" + i;
            List<KindRecipe.Op> ops = r.tasks().get(i);
            boolean ring = false;
            boolean pread = false;
            for (KindRecipe.Op op : ops) {
                ring |= !op.name.equals("pread");
                pread |= op.name.equals("pread");
            }
            if (ring && pread) {
                throw KindRecipe.bad(t + ": pread runs in a task without a ring");
            }
            int reads = 0;
            int reaped = 0;
            boolean closed = false;
            boolean exited = false;
            for (KindRecipe.Op op : ops) {
                if (exited) {
                    throw KindRecipe.bad(t + ": " + op + " after exit");
                }
                if (op.arg >= 0 && !op.name.equals("reap")) {
                    int last = op.name.equals("span") ? op.arg + 1 : op.arg;
                    if (last >= pages) {
                        throw KindRecipe.bad(t + ": " + op + " reads page " + last + " of " + pages);
                    }
                }
                if (ringRead(op.name)) {
                    if (closed) {
                        throw KindRecipe.bad(t + ": " + op + " after close");
                    }
                    if (++reads > RING_ENTRIES) {
                        throw KindRecipe.bad(t + ": more than " + RING_ENTRIES + " reads on one ring");
                    }
                } else if (op.name.equals("reap")) {
                    if (closed) {
                        throw KindRecipe.bad(t + ": " + op + " after close");
                    }
                    if (op.arg < 1 || reaped + op.arg > reads) {
                        throw KindRecipe.bad(t + ": " + op + " waits for more CQEs than reads outstanding ("
                                + (reads - reaped) + ")");
                    }
                    reaped += op.arg;
                } else if (op.name.equals("close")) {
                    if (reads == 0) {
                        throw KindRecipe.bad(t + ": close before any read (the ring is set up by its first read)");
                    }
                    if (closed) {
                        throw KindRecipe.bad(t + ": close twice");
                    }
                    closed = true;
                } else if (op.name.equals("exit")) {
                    if (reads == 0) {
                        throw KindRecipe.bad(t + ": exit before any read (the ring is set up by its first read)");
                    }
                    exited = true;
                }
            }
            if (ring && !exited) {
                throw KindRecipe.bad(t + " has a ring and must end with exit");
            }
        }
    }

    /** Reads of the recipe (ring reads and plain reads). */
    private static int ioOps(KindRecipe r) {
        int n = 0;
        for (List<KindRecipe.Op> ops : r.tasks()) {
            for (KindRecipe.Op op : ops) {
                n += ringRead(op.name) || op.name.equals("pread") ? 1 : 0;
            }
        }
        return n;
    }

    /**
     * Whether a recipe would run into the model's finding {@code finding-uring-nowait-issue-sleeps-on-tag}
     * on the clean configuration: the block device's only request tag held by one read while an
     * io_uring read's non-blocking attempt starts I/O (v5.10 has no {@code plug->nowait}, so its
     * bio sleeps in {@code blk_mq_get_tag()}: {@code blocked-in-nowait}). Not drawn, as the page
     * swarm does not draw truncation racing read completions.
     */
    private static boolean findsTagFinding(String file, String dev, int tags, int plug, int series, int reads) {
        return file.equals("bdev") && !dev.equals("nonowait") && tags == 1 && plug == 0 && series == 1 && reads > 1;
    }

    @Override
    public KindRecipe generate(long seed) {
        Random rnd = new Random(seed);
        boolean btrfs = rnd.nextInt(3) == 0;
        boolean span = rnd.nextInt(4) == 0;
        boolean nowaitFlag = rnd.nextInt(3) == 0;
        boolean readv = rnd.nextInt(3) == 0;
        boolean reaps = rnd.nextBoolean();
        boolean close = rnd.nextBoolean();
        boolean pread = rnd.nextInt(3) == 0;
        boolean twoRings = rnd.nextInt(5) == 0;
        int pages = span ? 2 + rnd.nextInt(2) : 1 + rnd.nextInt(2);
        String dev = "nowait";
        if (!btrfs) {
            int d = rnd.nextInt(5);
            dev = d == 0 ? "nonowait" : d == 1 ? "again" : "nowait";
        }
        int tags = 1 + rnd.nextInt(2);
        int ra = rnd.nextInt(3) == 0 ? Math.min(pages, 1 + rnd.nextInt(2)) : 0;
        List<Integer> cached = new ArrayList<>();
        if (!btrfs) {
            for (int p = 0; p < pages; p++) {
                if (rnd.nextInt(3) == 0) {
                    cached.add(p);
                }
            }
        }
        String path = rnd.nextInt(3) == 0 ? "59" : "510";
        int plug = rnd.nextInt(4) == 0 ? 1 : 0;
        int series = rnd.nextInt(6) == 0 ? 0 : 1;
        List<List<KindRecipe.Op>> tasks = new ArrayList<>();
        int rings = twoRings ? 2 : 1;
        for (int t = 0; t < rings; t++) {
            List<KindRecipe.Op> ops = new ArrayList<>();
            int reads = 1 + (rings == 1 && rnd.nextBoolean() ? 1 : 0);
            for (int k = 0; k < reads; k++) {
                List<String> kinds = new ArrayList<>();
                kinds.add("read");
                if (readv) {
                    kinds.add("readv");
                }
                if (nowaitFlag) {
                    kinds.add("nowait");
                }
                if (span) {
                    kinds.add("span");
                }
                String kind = kinds.get(rnd.nextInt(kinds.size()));
                int p = kind.equals("span") ? rnd.nextInt(pages - 1) : rnd.nextInt(pages);
                ops.add(new KindRecipe.Op(kind, p));
            }
            if (reaps) {
                ops.add(new KindRecipe.Op("reap", 1 + rnd.nextInt(reads)));
            }
            if (close) {
                ops.add(new KindRecipe.Op("close", -1));
            }
            ops.add(new KindRecipe.Op("exit", -1));
            tasks.add(ops);
        }
        if (pread && tasks.size() < KindRecipe.MAX_TASKS) {
            tasks.add(new ArrayList<>(Arrays.asList(new KindRecipe.Op("pread", rnd.nextInt(pages)))));
        }
        int reads = 0;
        for (List<KindRecipe.Op> ops : tasks) {
            for (KindRecipe.Op op : ops) {
                reads += ringRead(op.name) || op.name.equals("pread") ? 1 : 0;
            }
        }
        if (findsTagFinding(btrfs ? "btrfs" : "bdev", dev, tags, plug, series, reads)) {
            tags = 2;
        }
        Map<String, String> head = new LinkedHashMap<>();
        head.put("file", btrfs ? "btrfs" : "bdev");
        head.put("dev", dev);
        head.put("pages", "" + pages);
        head.put("tags", "" + tags);
        head.put("ra", "" + ra);
        head.put("cached", KindRecipe.listText(cached));
        head.put("path", path);
        head.put("plug", "" + plug);
        head.put("series", "" + series);
        return new KindRecipe(this, head, tasks);
    }

    @Override
    public Scenario<?> scenario(KindRecipe r) {
        Scenario.Builder<World> b = Scenario.<World>named(SwarmScenarios.PREFIX + r, "io_uring swarm recipe")
                .set(MmOptions.READ_PATH_V59, r.word("path").equals("59") ? 1 : 0)
                .set(IoUringOptions.IO_URING_PLUG_NOWAIT, r.num("plug"));
        if (r.num("series") == 0) {
            b.set(MmOptions.ASYNC_BUFFERED_READS, 0).set(MmOptions.READAHEAD_NOWAIT, 0);
        }
        return b.setup(() -> new World(r))
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

    /** One execution's world: the file, the rings, the reads and their CQEs. */
    static final class World {
        private final KindRecipe r;
        private final Bdev bdev;
        private final BtrfsVolume vol;
        private final BtrfsInode inode;
        private final File file;
        private final IoFd fd;
        /** Per task: its ring (null until its first ring operation). */
        private final Liburing[] rings;
        /** Per read, by user_data - 1: {offset, length, task, RWF_NOWAIT}. */
        private final List<long[]> reads = new ArrayList<>();
        private final List<byte[]> bufs = new ArrayList<>();
        /** Per task: whether its reads may end with -ECANCELED (it may exit with some not reaped). */
        private final boolean[] cancellable;
        private final List<List<String>> results = new ArrayList<>();

        World(KindRecipe r) {
            this.r = r;
            int pages = r.num("pages");
            int ra = r.num("ra");
            if (r.word("file").equals("btrfs")) {
                bdev = null;
                vol = BtrfsVolume.mkfs(BtrfsVolume.Profile.SINGLE, false);
                BtrfsVolume.FileBuilder fb = vol.file("f");
                fb.regular(0, (long) pages * PAGE);
                inode = fb.create();
                file = vol.open(inode, "f.uring", ra);
            } else {
                String d = r.word("dev");
                DiskKind kind = d.equals("nonowait") ? DiskKind.NO_NOWAIT : d.equals("again")
                        ? DiskKind.AGAIN_AT_COMPLETION : DiskKind.NOWAIT;
                bdev = Bdev.create(pages, r.num("tags"), ra, kind);
                vol = null;
                inode = null;
                file = bdev.open();
                for (int p : r.list("cached")) {
                    ReadWorld.cachePage(bdev, p);
                }
            }
            fd = new IoFd(file, 0);
            rings = new Liburing[r.tasks().size()];
            cancellable = new boolean[r.tasks().size()];
            for (int i = 0; i < rings.length; i++) {
                results.add(new ArrayList<>());
                int reads = 0;
                int reaped = 0;
                for (KindRecipe.Op op : r.tasks().get(i)) {
                    if (ringRead(op.name)) {
                        reads++;
                    } else if (op.name.equals("reap")) {
                        reaped += op.arg;
                    }
                }
                cancellable[i] = reaped < reads;
            }
        }

        void run(int t) {
            for (KindRecipe.Op op : r.tasks().get(t)) {
                results.get(t).add(op + "=" + step(t, op));
            }
        }

        private String step(int t, KindRecipe.Op op) {
            switch (op.name) {
                case "read":
                case "readv":
                case "nowait":
                case "span":
                    return submit(t, op);
                case "reap":
                    rings[t].waitCqes(op.arg);
                    return "0";
                case "close":
                    rings[t].close();
                    return "0";
                case "exit":
                    IoUringExit.doExit(rings[t].ctx);
                    return "0";
                case "pread":
                    return pread((long) op.arg * PAGE);
                default:
                    Kernel.BUG_ON(true, "uring swarm: " + op);
                    return "";
            }
        }

        /** Queues one read on task {@code t}'s ring (set up on first use) and submits it without waiting. */
        private String submit(int t, KindRecipe.Op op) {
            if (rings[t] == null) {
                rings[t] = Liburing.queueInit("t" + t + ".ring", RING_ENTRIES);
            }
            long off = (long) op.arg * PAGE + (op.name.equals("span") ? PAGE / 2 : 0);
            boolean nowait = op.name.equals("nowait");
            long userData = reads.size() + 1;
            byte[] buf = new byte[PAGE];
            reads.add(new long[] {off, PAGE, t, nowait ? 1 : 0});
            bufs.add(buf);
            int opcode = op.name.equals("readv") ? IoUringSqe.IORING_OP_READV : IoUringSqe.IORING_OP_READ;
            rings[t].getSqe().prepRead(opcode, fd, buf, off, userData).rwFlags = nowait ? IoUringSqe.RWF_NOWAIT : 0;
            long ret = rings[t].submitAndWait(0);
            Kernel.event("io_uring_submit(%s) = %s", op, Errno.name(ret));
            return Errno.name(ret);
        }

        /** A plain {@code read(2)} of one page through the file's {@code ->read_iter}; checks its bytes. */
        private String pread(long pos) {
            IovIter iter = new IovIter(PAGE);
            Kiocb kiocb = new Kiocb(file, pos, 0);
            long ret = vol != null ? BtrfsReadIter.btrfsFileReadIter(kiocb, iter) : FilemapRead.genericFileReadIter(kiocb, iter);
            Kernel.event("read(%s, %s) = %s", pos, PAGE, Errno.name(ret));
            if (ret != PAGE) {
                Kernel.fail(ViolationKind.WRONG_RESULT, "read(2) of " + PAGE + " bytes at " + pos + " returned "
                        + Errno.name(ret));
            }
            expectBytes(pos, iter.buf, (int) ret);
            return Errno.name(ret);
        }

        private void expectBytes(long pos, byte[] buf, int len) {
            if (vol != null) {
                BtrfsVolume.expectBytes(inode, pos, buf, 0, len);
            } else {
                bdev.expectBytes(pos, buf, 0, len);
            }
        }

        void check() {
            for (int i = 0; i < reads.size(); i++) {
                long ud = i + 1;
                long[] rd = reads.get(i);
                int t = (int) rd[2];
                int n = 0;
                long res = 0;
                for (long[] c : rings[t].ctx.cqeLog) {
                    if (c[0] == ud) {
                        n++;
                        res = c[1];
                    }
                }
                String what = "SQE " + ud + " (read " + rd[1] + " at " + rd[0] + (rd[3] != 0 ? ", RWF_NOWAIT" : "") + ")";
                if (n == 0) {
                    Kernel.fail(ViolationKind.LOST_COMPLETION, what + " on " + rings[t].ctx + " never got a CQE");
                }
                if (n > 1) {
                    Kernel.fail(ViolationKind.DOUBLE_COMPLETION, what + " on " + rings[t].ctx + " got " + n + " CQEs");
                }
                boolean ok = res == rd[1] || (res == -Errno.ECANCELED && cancellable[t])
                        || (rd[3] != 0 && (res == -Errno.EAGAIN || (res > 0 && res < rd[1])));
                if (!ok) {
                    Kernel.fail(ViolationKind.WRONG_RESULT, what + " completed with res " + Errno.name(res));
                }
                if (res > 0) {
                    expectBytes(rd[0], bufs.get(i), (int) res);
                }
            }
            for (Liburing ring : rings) {
                if (ring != null && !ring.ctx.isFreed()) {
                    Kernel.fail(ViolationKind.REF_LEAK, ring.ctx + " was closed but never freed (ctx->refs "
                            + ring.ctx.refs() + ")");
                }
            }
            if (vol != null) {
                vol.checkAtEnd();
                inode.vfsInode.iMapping.allocator.waitTable().checkInvariants();
            } else {
                bdev.checkAtEnd();
                bdev.expectCacheMatchesDisk();
                bdev.mapping().allocator.waitTable().checkInvariants();
            }
        }

        String outcome() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < results.size(); i++) {
                sb.append(i > 0 ? " " : "").append('t').append(i).append(':').append(Texts.join(",", results.get(i)));
            }
            long punts = 0;
            long armed = 0;
            for (Liburing ring : rings) {
                if (ring != null) {
                    for (long[] c : ring.ctx.cqeLog) {
                        sb.append(' ').append(c[0]).append('=').append(Errno.name(c[1]));
                    }
                    punts += ring.ctx.nrPunts;
                    armed += ring.ctx.nrEiocbqueued;
                }
            }
            sb.append(" | punts=").append(punts).append(" armed=").append(armed);
            if (vol != null) {
                sb.append(" btrfs_file_read_iter=").append(vol.fsInfo.stats.readIters);
            }
            return sb.toString();
        }
    }
}
