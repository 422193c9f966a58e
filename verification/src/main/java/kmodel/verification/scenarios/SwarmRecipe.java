package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import kmodel.sim.world.Texts;

/**
 * A swarm scenario's recipe: a tiny world (a block device of a few pages, some cached, some under
 * writeback, some failing to read, a wait table of a few heads) and a few tasks, each a short list
 * of the model's own operations ({@link SwarmOp}), plus an interrupt task that ends the
 * writebacks. Immutable value object with a stable one-line text form that {@link #parse} reads
 * back ({@code parse(r.toString()).equals(r)}):
 *
 * <pre>
 * pages=2 table=1 walk=1 ra=0 cached=0,1 wb=0 fail=- t0=lock(0),unlock(0) t1=waitwb(0),read(1) irq=endwb(0)
 * </pre>
 *
 * <ul>
 *   <li>{@code pages}: pages of the device (1-4); {@code table}: heads of the page wait table
 *       ({@code PAGE_WAIT_TABLE_SIZE}, 1-16); {@code walk}: {@code WAITQUEUE_WALK_BREAK_CNT} (1-64);
 *       {@code ra}: read-ahead pages of the file (0-4);</li>
 *   <li>{@code cached}, {@code wb}, {@code fail}: page indices, increasing, {@code -} for none:
 *       cached and uptodate at the start; under writeback at the start (cached ones only); reads
 *       of it fail with {@code -EIO};</li>
 *   <li>{@code proto=57}, optional: the page wait protocol of v5.7 ({@code PAGE_WAIT_V57});
 *       absent: v5.10's;</li>
 *   <li>{@code t0}, {@code t1}, ...: the tasks (1-4), each 1-8 operations;</li>
 *   <li>{@code irq}: present exactly when some page is under writeback: {@code endwb(p)} of each
 *       such page once, in the order given.</li>
 * </ul>
 *
 * <h2>Well-formedness (checked by the constructor, so a clean model passes every recipe)</h2>
 * Each task unlocks only what it locked and ends holding nothing: {@code unlock(p)} needs an
 * earlier {@code lock}, {@code trylock}, {@code killable} or {@code alock} of {@code p} not yet
 * unlocked (it unlocks only if that acquisition succeeded at run time). A blocking acquisition
 * ({@code lock}, {@code killable}, {@code alock}) of {@code p} is allowed only when every page the
 * task may hold has a lower index (the kernel's ascending page-lock order; {@code trylock} never
 * sleeps and may go in any order), so lockers cannot deadlock. Waits on a page lock, reads and
 * truncation run holding no page lock; {@code waitwb} may run holding locks, since writeback ends
 * in interrupt context, which takes no page lock. {@code kill(tN)} names another task, which must
 * not wait for task_work ({@code alock}, {@code await}, {@code readq}: the harness's
 * {@code io_cqring_wait()} sleep is interruptible and would spin on the pending signal).
 */
public final class SwarmRecipe {
    /** Most pages of a recipe's device. */
    public static final int MAX_PAGES = 4;
    /** Most heads of its wait table. */
    public static final int MAX_TABLE = 16;
    /** Most {@code WAITQUEUE_WALK_BREAK_CNT} (the kernel's value). */
    public static final int MAX_WALK = 64;
    /** Most read-ahead pages. */
    public static final int MAX_RA = 4;
    /** Most tasks (the irq task not counted). */
    public static final int MAX_TASKS = 4;
    /** Most operations of one task. */
    public static final int MAX_OPS = 8;
    /** Longest recipe text accepted by {@link #parse}. */
    static final int MAX_TEXT = 1000;

    private final int pages;
    private final int table;
    private final int walk;
    private final int ra;
    private final List<Integer> cached;
    private final List<Integer> writeback;
    private final List<Integer> failing;
    private final List<List<SwarmOp>> tasks;
    private final List<SwarmOp> irq;
    /** The page wait protocol of v5.7 ({@code PAGE_WAIT_V57}) instead of v5.10's; text {@code proto=57}, omitted for v5.10. */
    private final boolean v57;

    /**
     * A recipe; IllegalArgumentException with a one-line message when it is not well-formed (see
     * the class comment).
     */
    public SwarmRecipe(int pages, int table, int walk, int ra, List<Integer> cached, List<Integer> writeback,
            List<Integer> failing, List<List<SwarmOp>> tasks, List<SwarmOp> irq) {
        this(pages, table, walk, ra, cached, writeback, failing, tasks, irq, false);
    }

    /** The same with the page wait protocol of v5.7 when {@code v57}. */
    public SwarmRecipe(int pages, int table, int walk, int ra, List<Integer> cached, List<Integer> writeback,
            List<Integer> failing, List<List<SwarmOp>> tasks, List<SwarmOp> irq, boolean v57) {
        this.v57 = v57;
        this.pages = pages;
        this.table = table;
        this.walk = walk;
        this.ra = ra;
        this.cached = Collections.unmodifiableList(new ArrayList<>(cached));
        this.writeback = Collections.unmodifiableList(new ArrayList<>(writeback));
        this.failing = Collections.unmodifiableList(new ArrayList<>(failing));
        List<List<SwarmOp>> t = new ArrayList<>();
        for (List<SwarmOp> ops : tasks) {
            t.add(Collections.unmodifiableList(new ArrayList<>(ops)));
        }
        this.tasks = Collections.unmodifiableList(t);
        this.irq = Collections.unmodifiableList(new ArrayList<>(irq));
        validate();
    }

    public int pages() {
        return pages;
    }

    /** {@code PAGE_WAIT_TABLE_SIZE}. */
    public int table() {
        return table;
    }

    /** {@code WAITQUEUE_WALK_BREAK_CNT}. */
    public int walk() {
        return walk;
    }

    /** Read-ahead pages of the file ({@code ra_pages}). */
    public int ra() {
        return ra;
    }

    public List<Integer> cached() {
        return cached;
    }

    public List<Integer> writeback() {
        return writeback;
    }

    public List<Integer> failing() {
        return failing;
    }

    /** The tasks' operation lists, task {@code i} is named {@code t<i>}. */
    public List<List<SwarmOp>> tasks() {
        return tasks;
    }

    /** The interrupt task's {@code endwb} operations (empty when nothing is under writeback). */
    public List<SwarmOp> irq() {
        return irq;
    }

    /** Whether the recipe runs the page wait protocol of v5.7 ({@code proto=57}). */
    public boolean v57() {
        return v57;
    }

    /** This recipe with the protocol of v5.7 ({@code true}) or v5.10. */
    public SwarmRecipe withV57(boolean on) {
        return new SwarmRecipe(pages, table, walk, ra, cached, writeback, failing, tasks, irq, on);
    }

    /** Whether some task sends SIGKILL. */
    public boolean hasKill() {
        for (List<SwarmOp> ops : tasks) {
            for (SwarmOp op : ops) {
                if (op.kind() == SwarmOp.Kind.KILL) {
                    return true;
                }
            }
        }
        return false;
    }

    private void validate() {
        range("pages", pages, 1, MAX_PAGES);
        range("table", table, 1, MAX_TABLE);
        range("walk", walk, 1, MAX_WALK);
        range("ra", ra, 0, MAX_RA);
        pageList("cached", cached);
        pageList("wb", writeback);
        pageList("fail", failing);
        for (int p : writeback) {
            if (!cached.contains(p)) {
                throw bad("wb page " + p + " is not cached (only a cached page can be under writeback)");
            }
        }
        range("tasks", tasks.size(), 1, MAX_TASKS);
        for (int i = 0; i < tasks.size(); i++) {
            validateTask(i, tasks.get(i));
        }
        List<Integer> ended = new ArrayList<>();
        for (SwarmOp op : irq) {
            if (op.kind() != SwarmOp.Kind.ENDWB) {
                throw bad("irq may only endwb, got " + op);
            }
            if (!writeback.contains(op.arg())) {
                throw bad("irq ends writeback of page " + op.arg() + ", which is not under writeback (wb)");
            }
            if (ended.contains(op.arg())) {
                throw bad("irq ends writeback of page " + op.arg() + " twice");
            }
            ended.add(op.arg());
        }
        if (ended.size() != writeback.size()) {
            throw bad("irq must end the writeback of every wb page once (wb=" + list(writeback) + ")");
        }
    }

    private void validateTask(int i, List<SwarmOp> ops) {
        String t = "t" + i;
        range(t + " operations", ops.size(), 1, MAX_OPS);
        List<Integer> held = new ArrayList<>();
        for (SwarmOp op : ops) {
            SwarmOp.Kind k = op.kind();
            if (k == SwarmOp.Kind.ENDWB) {
                throw bad(t + ": endwb runs in the irq task only");
            }
            if (k == SwarmOp.Kind.KILL) {
                int target = op.arg();
                if (target >= tasks.size() || target == i) {
                    throw bad(t + ": " + op + " must name another task (t0-t" + (tasks.size() - 1) + ")");
                }
                for (SwarmOp o : tasks.get(target)) {
                    if (o.kind().waitsForTaskWork()) {
                        throw bad(t + ": " + op + " kills a task that waits for task_work (" + o + ")");
                    }
                }
                continue;
            }
            int p = op.arg();
            if (p >= pages) {
                throw bad(t + ": " + op + " names page " + p + " of " + pages);
            }
            if (k.acquires()) {
                if (held.contains(p)) {
                    throw bad(t + ": " + op + " while it may already hold page " + p);
                }
                if (k.acquiresBlocking() && !held.isEmpty() && held.get(held.size() - 1) > p) {
                    throw bad(t + ": " + op + " sleeps for page " + p + " holding page " + held.get(held.size() - 1)
                            + " (page locks go in ascending order)");
                }
                held.add(p);
                Collections.sort(held);
            } else if (k == SwarmOp.Kind.UNLOCK) {
                if (!held.remove((Integer) p)) {
                    throw bad(t + ": " + op + " without a lock of page " + p + " before it");
                }
            } else if (k.needsNoLocksHeld() && !held.isEmpty()) {
                throw bad(t + ": " + op + " holding page " + held.get(0) + " (it must hold no page lock)");
            }
        }
        if (!held.isEmpty()) {
            throw bad(t + " ends holding page " + held.get(0) + " (unlock it)");
        }
    }

    private void pageList(String name, List<Integer> l) {
        int last = -1;
        for (int p : l) {
            if (p < 0 || p >= pages) {
                throw bad(name + " names page " + p + " of " + pages);
            }
            if (p <= last) {
                throw bad(name + " must list pages in increasing order without repeats");
            }
            last = p;
        }
    }

    private static void range(String name, int v, int min, int max) {
        if (v < min || v > max) {
            throw bad(name + " must be " + min + "-" + max + ", got " + v);
        }
    }

    private static IllegalArgumentException bad(String what) {
        return new IllegalArgumentException("swarm recipe: " + what);
    }

    /** The one-line text form (see the class comment). */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("pages=").append(pages).append(" table=").append(table).append(" walk=").append(walk)
                .append(" ra=").append(ra).append(" cached=").append(list(cached)).append(" wb=")
                .append(list(writeback)).append(" fail=").append(list(failing));
        if (v57) {
            sb.append(" proto=57");
        }
        for (int i = 0; i < tasks.size(); i++) {
            sb.append(" t").append(i).append('=').append(ops(tasks.get(i)));
        }
        if (!irq.isEmpty()) {
            sb.append(" irq=").append(ops(irq));
        }
        return sb.toString();
    }

    private static String list(List<Integer> l) {
        if (l.isEmpty()) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        for (int p : l) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(p);
        }
        return sb.toString();
    }

    private static String ops(List<SwarmOp> l) {
        StringBuilder sb = new StringBuilder();
        for (SwarmOp op : l) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(op);
        }
        return sb.toString();
    }

    /**
     * Parses the text form; IllegalArgumentException with a one-line message ({@code swarm recipe:
     * ...}) on anything else, including a recipe that is not well-formed.
     */
    public static SwarmRecipe parse(String text) {
        if (text == null || text.isBlank()) {
            throw bad("empty recipe (expected e.g. 'pages=1 table=1 walk=64 ra=0 cached=0 wb=- fail=- t0=lock(0),unlock(0)')");
        }
        if (text.length() > MAX_TEXT) {
            throw bad("longer than " + MAX_TEXT + " characters");
        }
        String[] fields = text.strip().split(" +");
        String[] head = {"pages", "table", "walk", "ra", "cached", "wb", "fail"};
        if (fields.length < head.length + 1) {
            throw bad("expected " + Texts.join("=, ", head) + "=, then t0=..., got '" + abbreviate(text) + "'");
        }
        for (int i = 0; i < head.length; i++) {
            value(fields[i], head[i]);
        }
        int pages = parseSmall(value(fields[0], "pages"), "pages");
        int table = parseSmall(value(fields[1], "table"), "table");
        int walk = parseSmall(value(fields[2], "walk"), "walk");
        int ra = parseSmall(value(fields[3], "ra"), "ra");
        List<Integer> cached = parseList(value(fields[4], "cached"), "cached");
        List<Integer> wb = parseList(value(fields[5], "wb"), "wb");
        List<Integer> fail = parseList(value(fields[6], "fail"), "fail");
        List<List<SwarmOp>> tasks = new ArrayList<>();
        List<SwarmOp> irq = new ArrayList<>();
        boolean v57 = false;
        int first = head.length;
        if (fields[first].startsWith("proto=")) {
            String v = fields[first].substring("proto=".length());
            if (!v.equals("57")) {
                throw bad("proto must be 57 (v5.7's page wait protocol; omit it for v5.10's), got '" + abbreviate(v) + "'");
            }
            v57 = true;
            first++;
        }
        for (int i = first; i < fields.length; i++) {
            String f = fields[i];
            if (f.startsWith("irq=") && i == fields.length - 1) {
                irq = parseOps(f.substring(4), "irq");
                continue;
            }
            String name = "t" + tasks.size();
            if (tasks.size() >= MAX_TASKS) {
                throw bad("more than " + MAX_TASKS + " tasks, or an unexpected field '" + abbreviate(f) + "'");
            }
            tasks.add(parseOps(value(f, name), name));
        }
        return new SwarmRecipe(pages, table, walk, ra, cached, wb, fail, tasks, irq, v57);
    }

    private static String value(String field, String name) {
        if (!field.startsWith(name + "=")) {
            throw bad("expected " + name + "=..., got '" + abbreviate(field) + "'");
        }
        return field.substring(name.length() + 1);
    }

    private static List<Integer> parseList(String v, String name) {
        List<Integer> l = new ArrayList<>();
        if (v.equals("-")) {
            return l;
        }
        String[] parts = v.split(",", -1);
        if (parts.length > MAX_PAGES) {
            throw bad(name + " lists more than " + MAX_PAGES + " pages");
        }
        for (String p : parts) {
            l.add(parseSmall(p, name));
        }
        return l;
    }

    private static List<SwarmOp> parseOps(String v, String name) {
        List<SwarmOp> l = new ArrayList<>();
        String[] parts = v.split(",", -1);
        if (parts.length > MAX_OPS) {
            throw bad(name + " has more than " + MAX_OPS + " operations");
        }
        for (String p : parts) {
            l.add(SwarmOp.parse(p));
        }
        return l;
    }

    /** A small non-negative decimal (at most 4 digits), else a one-line error naming {@code what}. */
    static int parseSmall(String s, String what) {
        if (s.isEmpty() || s.length() > 4) {
            throw bad(what + ": expected a small number, got '" + abbreviate(s) + "'");
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                throw bad(what + ": expected a small number, got '" + abbreviate(s) + "'");
            }
        }
        return Integer.parseInt(s);
    }

    static String abbreviate(String s) {
        String t = s.length() <= 40 ? s : s.substring(0, 40) + "...";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SwarmRecipe)) {
            return false;
        }
        SwarmRecipe r = (SwarmRecipe) o;
        return r.pages == pages && r.table == table && r.walk == walk && r.ra == ra && r.cached.equals(cached)
                && r.writeback.equals(writeback) && r.failing.equals(failing) && r.tasks.equals(tasks)
                && r.irq.equals(irq) && r.v57 == v57;
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
