package kmodel.kernel.wait;

import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Footprinted;

/**
 * include/linux/list.h: {@code struct list_head}, circular and doubly linked. Plain list
 * operations are done under the lock that protects the list and are not scheduling points; the
 * lockless {@code _careful} pair lives in {@link Wait}.
 *
 * <h2>CONFIG_DEBUG_LIST</h2>
 * The model runs as if {@code CONFIG_DEBUG_LIST=y} and {@code CONFIG_BUG_ON_DATA_CORRUPTION=y}:
 * every add is checked by {@link #listAddValid} ({@code lib/list_debug.c: __list_add_valid()}),
 * every delete by {@link #listDelEntryValid} ({@code __list_del_entry_valid()}), and a failed
 * check is a {@code bug-on} whose message is the kernel's, with object names in place of
 * {@code %px} pointers. {@code list_del()} poisons the entry's links with
 * {@link #LIST_POISON1}/{@link #LIST_POISON2} as the kernel does, so deleting it again is caught.
 * One check goes beyond the kernel's: the kernel catches a double add only when the new entry is
 * next to where it is added ({@code new == prev || new == next}); the model also refuses an entry
 * that is still linked anywhere (its neighbours point back at it), which the kernel would corrupt
 * silently.
 */
public final class ListHead {
    /** include/linux/poison.h: {@code LIST_POISON1}, the {@code next} of a {@code list_del()}eted entry. */
    static final ListHead LIST_POISON1 = new ListHead("LIST_POISON1");
    /** include/linux/poison.h: {@code LIST_POISON2}, the {@code prev} of a {@code list_del()}eted entry. */
    static final ListHead LIST_POISON2 = new ListHead("LIST_POISON2");

    ListHead next = this;
    ListHead prev = this;
    /**
     * {@code next == this && prev == this}, kept up to date by every change of the links
     * ({@link #relinked}): what the lockless readers decide on ({@code list_empty_careful()} of an
     * entry, {@code waitqueue_active()} of a head). A neighbour joining or leaving the queue
     * rewrites an entry's links but not this, so only a change of it is a footprint of the
     * entry (or the queue), and the reduction does not order the owner's lockless test against
     * every neighbour's arrival, which commutes with it.
     */
    private boolean selfLinked = true;
    /** The entry this node is embedded in, or null for a list head. */
    final WaitQueueEntry owner;
    /** What a step that rewrites this node's links reports: its entry, or the queue whose head it is; null: nothing. */
    private final Footprinted holder;
    /** A name for corruption reports when {@link #owner} is null (a list head). */
    private final String label;

    ListHead(WaitQueueEntry owner) {
        this.owner = owner;
        this.holder = owner;
        this.label = null;
    }

    /** A list head named {@code label} in reports. */
    ListHead(String label) {
        this(label, null);
    }

    /** The head of {@code queue}'s list, named {@code label} in reports. */
    ListHead(String label, Footprinted queue) {
        this.owner = null;
        this.holder = queue;
        this.label = label;
    }

    /** include/linux/list.h: {@code list_empty()}. */
    public boolean empty() {
        return next == this;
    }

    /** include/linux/list.h: {@code INIT_LIST_HEAD()}. */
    void init() {
        next = this;
        prev = this;
        relinked();
    }

    /**
     * {@code next == this && prev == this}, without a scheduling point: the lockless readers'
     * test ({@link Wait#listEmptyCareful}, {@link Wait#waitqueueActive}), which report this
     * node's entry or queue themselves.
     */
    boolean selfLinked() {
        return selfLinked;
    }

    /**
     * lib/list_debug.c: {@code __list_add_valid()} (v5.10): {@code prev} and {@code next} must
     * point at each other, and {@code n} must not be one of them; plus the model's own check that
     * {@code n} is not linked into some list already (see the class comment). Reports
     * {@code bug-on}.
     */
    static void listAddValid(ListHead n, ListHead prev, ListHead next) {
        if (next.prev != prev) {
            corrupt("list_add corruption. next->prev should be prev (" + prev + "), but was " + next.prev
                    + ". (next=" + next + ").");
        }
        if (prev.next != next) {
            corrupt("list_add corruption. prev->next should be next (" + next + "), but was " + prev.next
                    + ". (prev=" + prev + ").");
        }
        if (n == prev || n == next) {
            corrupt("list_add double add: new=" + n + ", prev=" + prev + ", next=" + next + ".");
        }
        if (n.next != n && n.next != null && n.next != LIST_POISON1 && n.next.prev == n && n.prev.next == n) {
            corrupt("list_add double add: new=" + n + " is still on a list (between " + n.prev + " and "
                    + n.next + "), prev=" + prev + ", next=" + next + ".");
        }
    }

    /**
     * lib/list_debug.c: {@code __list_del_entry_valid()} (v5.10): the entry must not be poisoned
     * and its neighbours must point back at it. Reports {@code bug-on}.
     */
    static void listDelEntryValid(ListHead entry) {
        ListHead p = entry.prev;
        ListHead n = entry.next;
        if (n == LIST_POISON1) {
            corrupt("list_del corruption, " + entry + "->next is LIST_POISON1");
        }
        if (p == LIST_POISON2) {
            corrupt("list_del corruption, " + entry + "->prev is LIST_POISON2");
        }
        if (p.next != entry) {
            corrupt("list_del corruption. prev->next should be " + entry + ", but was " + p.next);
        }
        if (n.prev != entry) {
            corrupt("list_del corruption. next->prev should be " + entry + ", but was " + n.prev);
        }
    }

    /** include/linux/bug.h: {@code CHECK_DATA_CORRUPTION()} with {@code CONFIG_BUG_ON_DATA_CORRUPTION}. */
    private static void corrupt(String message) {
        Kernel.fail(ViolationKind.BUG_ON, message);
    }

    /** include/linux/list.h: {@code __list_add()} between {@code prev} and {@code next}, checked. */
    static void add(ListHead n, ListHead prev, ListHead next) {
        listAddValid(n, prev, next);
        next.prev = n;
        n.next = next;
        n.prev = prev;
        prev.next = n;
        n.relinked();
        prev.relinked();
        next.relinked();
    }

    /** include/linux/list.h: {@code list_add()}: after {@code head}. */
    void addAfter(ListHead head) {
        add(this, head, head.next);
    }

    /** include/linux/list.h: {@code list_add_tail()}: before {@code head}. */
    void addBefore(ListHead head) {
        add(this, head.prev, head);
    }

    /** include/linux/list.h: {@code __list_del_entry()}, checked by {@link #listDelEntryValid}. */
    void delEntry() {
        listDelEntryValid(this);
        prev.next = next;
        next.prev = prev;
        prev.relinked();
        next.relinked();
    }

    /** include/linux/list.h: {@code list_del()}: unlink and poison the links. */
    void del() {
        delEntry();
        next = LIST_POISON1;
        prev = LIST_POISON2;
        relinked();
    }

    /** include/linux/list.h: {@code list_del_init()}. */
    void delInit() {
        delEntry();
        init();
    }

    /**
     * The links of this node were just written: if that changed {@link #selfLinked}, the step
     * reports the node's entry, or the queue whose head it is. The list is written under its
     * lock, but read without it: an entry's owner tests its own node
     * ({@link Wait#listEmptyCareful}) and {@link Wait#waitqueueActive} peeks at the head, which a
     * step inside the lock holder's critical section (not the one that took the lock) may change
     * (the footprint audit found both reads unordered with the writes).
     */
    void relinked() {
        relinked(kmodel.kernel.lkmm.Order.PLAIN);
    }

    /**
     * {@link #relinked()} by a store with ordering {@code o}: under {@code --memory-model lkmm}
     * {@link #selfLinked} is a location (the lockless readers may read an older value of it), and a
     * change of it is a store, plain under the list's lock, RELEASE in
     * {@code list_del_init_careful()}.
     */
    void relinked(kmodel.kernel.lkmm.Order o) {
        boolean s = next == this && prev == this;
        if (s != selfLinked) {
            if (holder != null) {
                Kernel.access(holder);
            }
            kmodel.kernel.sched.Runtime rt = Kernel.rtOrNull();
            if (rt != null) {
                rt.storeLong(this, selfLinked ? 1 : 0, s ? 1 : 0, o);
            }
            selfLinked = s;
        }
    }

    /**
     * {@link #selfLinked()} as a lockless load with ordering {@code o}: under {@code --memory-model
     * lkmm} it may read an older value ({@code waitqueue_active()}'s plain peek at the head,
     * {@code list_empty_careful()}'s acquire).
     */
    boolean selfLinked(kmodel.kernel.lkmm.Order o) {
        return Kernel.rt().loadLong(this, selfLinked ? 1 : 0, o) != 0;
    }

    @Override
    public String toString() {
        if (owner != null) {
            return owner.name();
        }
        return label != null ? label : "list_head";
    }
}
