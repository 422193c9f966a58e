package kmodel.kernel.wait;

/**
 * include/linux/list.h: {@code struct list_head}, circular and doubly linked. Plain list
 * operations are done under the lock that protects the list and are not scheduling points; the
 * lockless {@code _careful} pair lives in {@link Wait}.
 */
public final class ListHead {
    ListHead next = this;
    ListHead prev = this;
    /** The entry this node is embedded in, or null for a list head. */
    final WaitQueueEntry owner;

    ListHead(WaitQueueEntry owner) {
        this.owner = owner;
    }

    /** include/linux/list.h: {@code list_empty()}. */
    public boolean empty() {
        return next == this;
    }

    /** include/linux/list.h: {@code INIT_LIST_HEAD()}. */
    void init() {
        next = this;
        prev = this;
    }

    /** include/linux/list.h: {@code __list_add()} between {@code prev} and {@code next}. */
    static void add(ListHead n, ListHead prev, ListHead next) {
        next.prev = n;
        n.next = next;
        n.prev = prev;
        prev.next = n;
    }

    /** include/linux/list.h: {@code list_add()}: after {@code head}. */
    void addAfter(ListHead head) {
        add(this, head, head.next);
    }

    /** include/linux/list.h: {@code list_add_tail()}: before {@code head}. */
    void addBefore(ListHead head) {
        add(this, head.prev, head);
    }

    /** include/linux/list.h: {@code __list_del_entry()}. */
    void delEntry() {
        prev.next = next;
        next.prev = prev;
    }

    /** include/linux/list.h: {@code list_del_init()}. */
    void delInit() {
        delEntry();
        init();
    }
}
