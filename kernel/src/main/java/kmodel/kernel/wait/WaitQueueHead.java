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
    final ListHead head = new ListHead(null);
    private final String name;

    /** include/linux/wait.h: {@code init_waitqueue_head()}. */
    public WaitQueueHead(String name) {
        this.name = name;
        this.lock = new Spinlock(name + ".lock");
    }

    /** Number of queued entries, without a scheduling point (checks and reports only). */
    public int peekLength() {
        int n = 0;
        for (ListHead p = head.next; p != head; p = p.next) {
            n++;
        }
        return n;
    }

    /** Whether {@code e} is queued here, without a scheduling point (checks only). */
    public boolean peekContains(WaitQueueEntry e) {
        for (ListHead p = head.next; p != head; p = p.next) {
            if (p.owner == e) {
                return true;
            }
        }
        return false;
    }

    /** The queued entries in order, without a scheduling point (checks only). */
    public java.util.List<WaitQueueEntry> peekEntries() {
        java.util.ArrayList<WaitQueueEntry> out = new java.util.ArrayList<>();
        for (ListHead p = head.next; p != head; p = p.next) {
            out.add(p.owner);
        }
        return out;
    }

    @Override
    public String toString() {
        return name;
    }
}
