package kmodel.kernel.lkmm;

/**
 * A task's (CPU's) views: {@code cur}, what it has seen and must not go back before (coherence
 * and the ordering already in force); {@code acq}, what an acquire fence would bring in (the
 * views of stores it read); {@code rel}, what its relaxed stores release (set by fences); and
 * {@code own}, its own stores (what {@code smp_wmb()} orders).
 */
public final class LkmmTask {
    final View cur;
    final View acq;
    final View rel;
    final View own;
    /** Whether it has released a spinlock (a later lock then orders across: po-unlock-lock-po). */
    boolean unlocked;

    public LkmmTask() {
        this(new View(), new View(), new View(), new View());
    }

    private LkmmTask(View cur, View acq, View rel, View own) {
        this.cur = cur;
        this.acq = acq;
        this.rel = rel;
        this.own = own;
    }

    public LkmmTask copy() {
        LkmmTask t = new LkmmTask(cur.copy(), acq.copy(), rel.copy(), own.copy());
        t.unlocked = unlocked;
        return t;
    }

    /** The current view (read-only use). */
    public View current() {
        return cur;
    }
}
