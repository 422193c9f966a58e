package kmodel.kernel.lkmm;

import java.util.ArrayList;
import java.util.List;

/**
 * The shared memory of the LKMM approximation: per location its stores in modification order
 * (coherence order), each with the view it releases, plus the view that the strong fences
 * ({@code smp_mb()} and the fully ordered atomics) have published so far (they are totally
 * ordered among themselves, as the LKMM's propagation rule needs).
 *
 * <p>What a search may choose, and this class only permits: which store a load reads ({@link
 * #readable}: any at or after the task's view of the location, CoRR/CoWR), where a store goes
 * ({@link #storeSlots}: anywhere after the task's view, CoWW/CoRW, never between a
 * read-modify-write and the store it read), which store a read-modify-write reads ({@link
 * #rmwReadable}: one not already followed by another read-modify-write, so that RMWs are atomic).
 * Copies are deep and cheap: a search forks states with {@link #copy()}.
 */
public final class LkmmMemory {
    private final ArrayList<ArrayList<Message>> locs;
    private final ArrayList<String> names;
    private View sc;
    /** Fences made no-ops (ablation: a deliberate break that a check must notice). */
    private final java.util.EnumSet<Fence> ablated;

    public LkmmMemory() {
        this(java.util.EnumSet.noneOf(Fence.class));
    }

    /**
     * A memory in which the fences in {@code ablated} do nothing: for barrier ablation and for
     * tests that show a check failing when the model is deliberately broken.
     */
    public LkmmMemory(java.util.Set<Fence> ablated) {
        this.locs = new ArrayList<>();
        this.names = new ArrayList<>();
        this.sc = new View();
        this.ablated = ablated.isEmpty() ? java.util.EnumSet.noneOf(Fence.class) : java.util.EnumSet.copyOf(ablated);
    }

    private LkmmMemory(LkmmMemory o) {
        this.locs = new ArrayList<>(o.locs.size());
        for (ArrayList<Message> l : o.locs) {
            this.locs.add(new ArrayList<>(l));
        }
        this.names = o.names;
        this.sc = o.sc.copy();
        this.ablated = o.ablated;
    }

    /** A deep copy (messages are immutable and shared). */
    public LkmmMemory copy() {
        return new LkmmMemory(this);
    }

    /** Adds a location whose initial store holds {@code initial}; returns its number. */
    public int location(String name, long initial) {
        return location(name, initial, null);
    }

    /**
     * Adds a location whose initial store holds {@code initial} (numbers) or {@code ref}
     * (references); returns its number.
     */
    public int location(String name, long initial, Object ref) {
        int loc = locs.size();
        ArrayList<Message> l = new ArrayList<>();
        View v = new View();
        l.add(new Message(loc, 0, initial, ref, v, -1, -1, false));
        locs.add(l);
        names.add(name);
        return loc;
    }

    public int locations() {
        return locs.size();
    }

    public String name(int loc) {
        return names.get(loc);
    }

    /** The stores to {@code loc} in modification order (read-only). */
    public List<Message> stores(int loc) {
        return locs.get(loc);
    }

    /** The coherence-last store to {@code loc}: its final value when the run ends. */
    public Message last(int loc) {
        ArrayList<Message> l = locs.get(loc);
        return l.get(l.size() - 1);
    }

    private static double floor(LkmmTask t, int loc, View dep) {
        double f = t.cur.get(loc);
        return dep == null ? f : Math.max(f, dep.get(loc));
    }

    /**
     * The stores a load by {@code t} may read: those not before its view of {@code loc}, nor
     * before {@code dep} (the views of the loads its address depends on).
     */
    public List<Message> readable(LkmmTask t, int loc, View dep) {
        double f = floor(t, loc, dep);
        List<Message> out = new ArrayList<>();
        for (Message m : locs.get(loc)) {
            if (m.ts >= f) {
                out.add(m);
            }
        }
        return out;
    }

    /** {@code t} reads {@code m} with ordering {@code o} ({@link Order#FULL}: mb, read, mb). */
    public void read(LkmmTask t, Message m, Order o) {
        if (o == Order.FULL) {
            fence(t, Fence.MB);
        }
        t.cur.raise(m.loc, m.ts);
        t.acq.raise(m.loc, m.ts);
        t.acq.join(m.view);
        if (o == Order.ACQUIRE || o == Order.FULL) {
            t.cur.join(m.view);
        }
        if (o == Order.FULL) {
            fence(t, Fence.MB);
        }
    }

    /** The timestamps a store by {@code t} to {@code loc} may take: one per gap after its view. */
    public List<Double> storeSlots(LkmmTask t, int loc) {
        ArrayList<Message> l = locs.get(loc);
        double f = t.cur.get(loc);
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            Message m = l.get(i);
            if (m.ts < f) {
                continue;
            }
            if (i + 1 == l.size()) {
                out.add(m.ts + 1);
            } else if (!l.get(i + 1).rmw) {
                out.add((m.ts + l.get(i + 1).ts) / 2);
            }
        }
        return out;
    }

    /** {@code t} stores {@code value} to {@code loc} at timestamp {@code ts} (one of {@link #storeSlots}). */
    public Message write(LkmmTask t, int loc, double ts, long value, Order o, int task, int event) {
        return write(t, loc, ts, value, null, o, task, event);
    }

    /** {@link #write} of a value that is a number ({@code value}) or a reference ({@code ref}). */
    public Message write(LkmmTask t, int loc, double ts, long value, Object ref, Order o, int task, int event) {
        if (o == Order.FULL) {
            fence(t, Fence.MB);
        }
        Message m = place(t, loc, ts, value, ref, o, task, event, false);
        if (o == Order.FULL) {
            fence(t, Fence.MB);
        }
        return m;
    }

    private Message place(LkmmTask t, int loc, double ts, long value, Order o, int task, int event, boolean rmw) {
        return place(t, loc, ts, value, null, o, task, event, rmw);
    }

    private Message place(LkmmTask t, int loc, double ts, long value, Object ref, Order o, int task, int event,
            boolean rmw) {
        View v = (o == Order.RELEASE || o == Order.FULL) ? t.cur.copy() : t.rel.copy();
        v.raise(loc, ts);
        Message m = new Message(loc, ts, value, ref, v, task, event, rmw);
        ArrayList<Message> l = locs.get(loc);
        int i = l.size();
        while (i > 0 && l.get(i - 1).ts > ts) {
            i--;
        }
        l.add(i, m);
        t.cur.raise(loc, ts);
        t.acq.raise(loc, ts);
        t.own.raise(loc, ts);
        return m;
    }

    /** The stores a read-modify-write by {@code t} may read: readable, and not yet read by another RMW. */
    public List<Message> rmwReadable(LkmmTask t, int loc, View dep) {
        ArrayList<Message> l = locs.get(loc);
        double f = floor(t, loc, dep);
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            if (l.get(i).ts >= f && (i + 1 == l.size() || !l.get(i + 1).rmw)) {
                out.add(l.get(i));
            }
        }
        return out;
    }

    /**
     * A read-modify-write: {@code t} reads {@code read} (one of {@link #rmwReadable}) and stores
     * {@code value} immediately after it in modification order. {@link Order#ACQUIRE} orders the
     * read, {@link Order#RELEASE} the write, {@link Order#FULL} puts a full fence on both sides.
     */
    public Message rmw(LkmmTask t, Message read, long value, Order o, int task, int event) {
        if (o == Order.FULL) {
            fence(t, Fence.MB);
        }
        read(t, read, o == Order.ACQUIRE ? Order.ACQUIRE : Order.ONCE);
        ArrayList<Message> l = locs.get(read.loc);
        int i = l.indexOf(read);
        double ts = i + 1 == l.size() ? read.ts + 1 : (read.ts + l.get(i + 1).ts) / 2;
        Message m = place(t, read.loc, ts, value, o == Order.RELEASE ? Order.RELEASE : Order.ONCE, task, event, true);
        // An RMW continues the sequence of the store it read (C11's release sequence; the LKMM's
        // rf;rmw chains): a task that reads the RMW's store sees what the store it read released.
        // Without it a reader of page->flags through a later relaxed bit RMW missed SetPageUptodate()'s smp_wmb().
        m.view.join(read.view);
        if (o == Order.FULL) {
            fence(t, Fence.MB);
        }
        return m;
    }

    /**
     * {@code spin_lock()}'s acquisition, once the search picked {@code unlocked} (a store of 0 to
     * the lock from {@link #rmwReadable}): an acquire RMW that also makes what the last holder
     * released part of what this task's later stores release (po-unlock-rf-lock-po is
     * cumulative in the LKMM). When the task released some spinlock before, everything before that
     * unlock is also ordered before everything after this lock, for every CPU (linux-kernel.cat's
     * {@code po-unlock-lock-po}, as in v6.1): approximated by an acquire and a release fence here
     * (stronger for accesses between the unlock and this lock).
     */
    public Message lock(LkmmTask t, Message unlocked, int task, int event) {
        if (t.unlocked) {
            t.cur.join(t.acq);
            t.rel.join(t.cur);
        }
        Message m = rmw(t, unlocked, 1, Order.ACQUIRE, task, event);
        t.rel.join(unlocked.view);
        return m;
    }

    /** {@code spin_unlock()}: a release store of 0, coherence-last. */
    public Message unlock(LkmmTask t, int loc, int task, int event) {
        t.unlocked = true;
        return place(t, loc, last(loc).ts + 1, 0, Order.RELEASE, task, event, false);
    }

    /**
     * The release of a sleeping lock ({@code mutex_unlock()}, {@code up_read()}, {@code
     * up_write()}): a RELEASE store at the end of {@code loc}'s modification order whose view also
     * carries the previous store's (the lock word is released by RMWs, so a later acquirer that
     * reads this one also sees what every earlier holder released).
     */
    public Message releaseLock(LkmmTask t, int loc, int task, int event) {
        Message last = last(loc);
        View v = t.cur.copy();
        v.join(last.view);
        double ts = last.ts + 1;
        v.raise(loc, ts);
        Message m = new Message(loc, ts, last.value + 1, null, v, task, event, true);
        locs.get(loc).add(m);
        t.cur.raise(loc, ts);
        t.acq.raise(loc, ts);
        t.own.raise(loc, ts);
        return m;
    }

    /**
     * Whether a strong fence by {@code t} now would change the global fence view (publish something
     * it does not cover yet); if not, the fence only reads it. The global view only grows, and only
     * {@code t}'s own steps raise {@code t}'s views, so a fence that only reads stays so whatever
     * other tasks do first: for partial-order reduction two read-only fences commute.
     */
    public boolean fencePublishes(LkmmTask t) {
        return !sc.covers(t.cur) || !sc.covers(t.acq);
    }

    /** A barrier by {@code t} (see {@link Fence} for the approximations). */
    public void fence(LkmmTask t, Fence f) {
        if (ablated.contains(f)) {
            return;
        }
        switch (f) {
            case MB:
            case MB_BEFORE_ATOMIC:
            case MB_AFTER_ATOMIC:
            case MB_AFTER_SPINLOCK:
                t.cur.join(t.acq);
                t.cur.join(sc);
                sc = t.cur.copy();
                t.acq.join(t.cur);
                t.rel.join(t.cur);
                break;
            case RMB:
                t.cur.join(t.acq);
                break;
            case WMB:
                t.rel.join(t.own);
                break;
            case BARRIER:
            default:
                break;
        }
    }

    /** The position of {@code ts} in {@code loc}'s modification order (0: the initial store). */
    public int rank(int loc, double ts) {
        ArrayList<Message> l = locs.get(loc);
        for (int i = 0; i < l.size(); i++) {
            if (l.get(i).ts >= ts) {
                return i;
            }
        }
        return l.size();
    }

    /** A canonical text of {@code v} (ranks, not timestamps), for state keys. */
    public void key(View v, StringBuilder sb) {
        for (int loc = 0; loc < locs.size(); loc++) {
            sb.append(rank(loc, v.get(loc))).append(',');
        }
    }

    /** A canonical text of {@code t}'s views. */
    public void key(LkmmTask t, StringBuilder sb) {
        key(t.cur, sb);
        sb.append('|');
        key(t.acq, sb);
        sb.append('|');
        key(t.rel, sb);
        sb.append('|');
        key(t.own, sb);
        sb.append(t.unlocked ? 'U' : '-');
    }

    /** A canonical text of the memory: per location its stores (writer, value, view) in order. */
    public void key(StringBuilder sb) {
        for (ArrayList<Message> l : locs) {
            for (Message m : l) {
                sb.append(m.event).append(':').append(m.value).append(m.rmw ? "r" : "").append('{');
                key(m.view, sb);
                sb.append('}');
            }
            sb.append(';');
        }
        key(sc, sb);
    }
}
