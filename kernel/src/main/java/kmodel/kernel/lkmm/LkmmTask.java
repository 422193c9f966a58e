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

    /**
     * A task created by {@code parent} (kthread/worker creation, a completion interrupt raised by a
     * submission): it starts having seen what its creator had seen, as the kernel's task creation
     * and queueing orders the creator's earlier accesses before the new task's first.
     */
    public static LkmmTask forkedFrom(LkmmTask parent) {
        LkmmTask t = new LkmmTask();
        t.cur.join(parent.cur);
        t.acq.join(parent.cur);
        return t;
    }

    /**
     * This task is woken by {@code waker} (a {@code try_to_wake_up()} that found it asleep): what
     * the waker had seen becomes part of what this task has seen when it runs again. v5.10's
     * try_to_wake_up() orders the waker's accesses before the wakee's through {@code p->pi_lock},
     * the run-queue lock and {@code p->on_cpu}'s release/acquire, which {@code __schedule()} of the
     * wakee pairs with ({@code rq->lock} then {@code smp_mb__after_spinlock()}).
     */
    public void wokenBy(LkmmTask waker) {
        cur.join(waker.cur);
        acq.join(waker.cur);
    }

    /**
     * A plain access by this task, numbered {@code stamp}, on the task's own pseudo-location
     * {@code loc} (a location no store is made to): it enters the task's view, so it travels with
     * the views as every access does (release stores, acquire loads, fences, lock handoffs,
     * wake-ups, task creation), and another task is ordered after it exactly when its view covers
     * it. The data-race check under {@code --memory-model lkmm} asks that ({@link #sees}). A write
     * also enters {@code own}, so {@code smp_wmb()} orders it before later stores.
     */
    public void stamp(int loc, double stamp, boolean write) {
        cur.raise(loc, stamp);
        acq.raise(loc, stamp);
        if (write) {
            own.raise(loc, stamp);
        }
    }

    /** Whether this task's view covers the access numbered {@code stamp} on pseudo-location {@code loc}. */
    public boolean sees(int loc, double stamp) {
        return cur.get(loc) >= stamp;
    }

    /** The current view (read-only use). */
    public View current() {
        return cur;
    }
}
