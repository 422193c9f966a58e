package kmodel.kernel.wait;

import kmodel.kernel.Kernel;
import kmodel.kernel.lifetime.KObject;

/**
 * include/linux/wait.h: {@code struct wait_queue_entry}.
 *
 * <p>Lifetime: most entries live on the sleeper's stack ({@code DEFINE_WAIT}); once the function
 * that declared it returns, the entry is gone, and any later touch by a waker is a
 * {@code use-after-free}. The owner calls {@link #leaveScope()} when that function returns. This
 * is why a waker's {@code list_del_init_careful()} has to be its last access to the entry.
 *
 * <p>Field rules: {@code flags} is written by the owner before queueing and, in
 * {@code wake_page_function()}, by the waker under the queue lock with a release store (read by
 * the owner with an acquire load); {@code private_} and {@code func} are set before queueing and
 * then only read.
 */
public class WaitQueueEntry extends KObject {
    /** Wake one exclusive waiter per wake-up. */
    public static final int WQ_FLAG_EXCLUSIVE = 0x01;
    /** The waker has woken this entry (v5.8+ page waits). */
    public static final int WQ_FLAG_WOKEN = 0x02;
    /** A walk's bookmark, not a waiter. */
    public static final int WQ_FLAG_BOOKMARK = 0x04;
    /** Waiter kind (c) of wake_page_function(): exclusive with a fair lock hand-off. */
    public static final int WQ_FLAG_CUSTOM = 0x08;
    /** The waker took the bit for this waiter (hand-off done). */
    public static final int WQ_FLAG_DONE = 0x10;

    int flags;
    Object private_;
    /** The structure this entry is embedded in ({@code container_of}), e.g. a wait_page_queue. */
    private Object ownerObject;
    WaitQueueFunc func;
    /** Embedded list node, linked into a {@link WaitQueueHead} under its lock. */
    public final ListHead entry = new ListHead(this);

    /** An entry named for traces (e.g. "t1.wait"). */
    @SuppressWarnings("this-escape") // the embedded node points back at its entry, as container_of() does
    public WaitQueueEntry(String name) {
        super("wait_queue_entry", name);
    }

    /** {@code wq_entry->flags}: a plain read (owner, or under the queue lock). */
    public int flags() {
        touch();
        return flags;
    }

    /** {@code wq_entry->flags = v}: a plain write (owner before queueing, or under the queue lock). */
    public void setFlags(int v) {
        touch();
        flags = v;
    }

    /** {@code smp_load_acquire(&wq_entry->flags)}: a scheduling point. */
    public int loadAcquireFlags() {
        Kernel.rt().pointRead("smp_load_acquire(flags)", this);
        touch();
        synchronized (this) {
            return flags;
        }
    }

    /** {@code smp_store_release(&wq_entry->flags, v)}: a scheduling point. */
    public void storeReleaseFlags(int v) {
        Kernel.rt().point("smp_store_release(flags)", this);
        touch();
        synchronized (this) {
            flags = v;
        }
    }

    /** Records the structure this entry is embedded in. */
    public void setOwnerObject(Object o) {
        ownerObject = o;
    }

    /** {@code container_of(wq_entry, T, wait)}: the structure this entry is embedded in. */
    public Object containerOf() {
        touch();
        return ownerObject;
    }

    /** {@code wq_entry->private}: usually the sleeping task. */
    public Object private_() {
        touch();
        return private_;
    }

    /** Sets {@code wq_entry->private}. */
    public void setPrivate(Object p) {
        touch();
        private_ = p;
    }

    /** {@code wq_entry->func}. */
    public WaitQueueFunc func() {
        touch();
        return func;
    }

    /** Sets {@code wq_entry->func}. */
    public void setFunc(WaitQueueFunc f) {
        touch();
        func = f;
    }

    /** {@code list_empty(&wq_entry->entry)}: a plain read (owner, or under the queue lock). */
    public boolean listEmpty() {
        touch();
        return entry.empty();
    }

    /** {@code INIT_LIST_HEAD(&wq_entry->entry)}. */
    public void initListHead() {
        touch();
        entry.init();
    }

    /** The function that declared this on-stack entry returns: the entry no longer exists. */
    public void leaveScope() {
        released();
    }

    @Override
    public int refs() {
        return 0;
    }
}
