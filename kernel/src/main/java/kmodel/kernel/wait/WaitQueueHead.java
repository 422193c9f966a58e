package kmodel.kernel.wait;

import kmodel.kernel.sched.Footprinted;

import kmodel.kernel.locking.Spinlock;

/**
 * include/linux/wait.h: {@code struct wait_queue_head}.
 *
 * <p>Lock rule: {@code head} and every entry's links are changed only under {@code lock}, except
 * that a waker's final {@code list_del_init_careful()} may race with the owner's lockless
 * {@code list_empty_careful()} in {@code finish_wait()} (the pair is designed for that).
 */
public final class WaitQueueHead extends Footprinted {
    /** Protects {@link #head} and the links of every queued entry. */
    public final Spinlock lock;
    /** The list of {@link WaitQueueEntry}s, protected by {@link #lock}. */
    final ListHead head;
    private final String name;

    /**
     * The most entries the checks' peeks walk before they call the list corrupted (a cycle that
     * does not pass through the head): far more than any scenario queues.
     */
    static final int PEEK_LIMIT = 1 << 16;

    /** include/linux/wait.h: {@code init_waitqueue_head()}. */
    @SuppressWarnings("this-escape") // the head node names its queue in footprints; it only stores it
    public WaitQueueHead(String name) {
        this.name = name;
        this.lock = new Spinlock(name + ".lock");
        this.head = new ListHead(name + ".head", this);
    }

    /** Number of queued entries, without a scheduling point (checks and reports only). */
    public int peekLength() {
        return peekEntries().size();
    }

    /** Whether {@code e} is queued here, without a scheduling point (checks only). */
    public boolean peekContains(WaitQueueEntry e) {
        return peekEntries().contains(e);
    }

    /**
     * The queued entries in order, without a scheduling point (checks only). A walk that does not
     * come back to the head within {@link #PEEK_LIMIT} entries is a corrupted (cyclic) list,
     * reported as {@code bug-on} instead of hanging the check.
     */
    public java.util.List<WaitQueueEntry> peekEntries() {
        java.util.ArrayList<WaitQueueEntry> out = new java.util.ArrayList<>();
        for (ListHead p = head.next; p != head; p = p.next) {
            if (out.size() == PEEK_LIMIT) {
                kmodel.kernel.Kernel.fail(kmodel.kernel.ViolationKind.BUG_ON, "list corruption: " + name
                        + " does not come back to its head after " + PEEK_LIMIT + " entries (a cycle)");
            }
            out.add(p.owner);
        }
        return out;
    }

    @Override
    public String toString() {
        return name;
    }
}
