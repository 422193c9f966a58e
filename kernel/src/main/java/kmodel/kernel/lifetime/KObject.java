package kmodel.kernel.lifetime;

import kmodel.kernel.sched.Footprinted;



/**
 * An object whose lifetime the checker tracks: a page, a bio, an io_uring request, a sleeping
 * waiter's on-stack {@code wait_queue_entry}. It registers with the execution's
 * {@link Lifetimes} when created; the owner's release path calls {@link #released()} when the
 * last reference goes, and accessors that the kernel would make through a pointer call
 * {@link #touch()}.
 *
 * <p>Names are given by the model in creation order ("P0", "bio3"), never from identity hashes,
 * so that a replayed schedule prints the same trace byte for byte.
 */
public abstract class KObject extends Footprinted {
    private final String kind;
    private String name;
    /** Set once by {@link #released()}; written only by the task that dropped the last reference. */
    boolean freed;
    /** References the scenario declared as still legitimately held at the end (e.g. the page cache's). */
    int expectedRefs;
    String expectedWhy;
    /** Position in the tracker's list it was registered in, or -1 when created with no runtime installed. */
    int slot = -1;

    // The tracker holds every object from its creation on, as the kernel counts a kref from kref_init().
    @SuppressWarnings("this-escape")
    protected KObject(String kind, String name) {
        this.kind = kind;
        this.name = name;
        Lifetimes l = Lifetimes.activeOrNull();
        if (l != null) {
            l.register(this);
        }
    }

    /** The kind of object, e.g. "page", "bio". */
    public final String kind() {
        return kind;
    }

    /** The model-given name, e.g. "P0". */
    public final String name() {
        return name;
    }

    /** Renames the object when it is reused (a freed page handed out again). */
    protected final void rename(String newName) {
        this.name = newName;
    }

    /** The references held right now (for the leak check); 0 for objects without a count. */
    public abstract int refs();

    /** Whether the object has been freed. */
    public final boolean isFreed() {
        return freed;
    }

    /** A freed object is being handed out again by its allocator (pages are reusable). */
    protected final void reuse() {
        Lifetimes.accessed(this);
        freed = false;
        expectedRefs = 0;
        expectedWhy = null;
    }

    /** Marks the object freed; a second free is a {@code double-release}. */
    protected final void released() {
        Lifetimes.accessed(this);
        Lifetimes l = Lifetimes.activeOrNull();
        if (l != null) {
            l.free(this);
        } else {
            freed = true;
        }
    }

    /**
     * Whether the object's memory outlives its free: {@code struct page}, which the kernel never
     * frees (short of memory hot-remove), only hands back to the allocator. Such an object is
     * still tracked for double frees and leaks, but touching it while it is free is no
     * {@code use-after-free}: its owner checks a late access for its effect instead.
     */
    protected boolean memoryOutlivesFree() {
        return false;
    }

    /**
     * An access through a pointer: touching a freed object is a {@code use-after-free}, unless
     * its memory outlives the free ({@link #memoryOutlivesFree()}).
     */
    public final void touch() {
        Lifetimes.accessed(this);
        if (freed && !memoryOutlivesFree()) {
            Lifetimes.useAfterFree(this);
        }
    }

    @Override
    public String toString() {
        return name;
    }

}
