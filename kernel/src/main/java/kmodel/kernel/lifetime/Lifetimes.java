package kmodel.kernel.lifetime;

import kmodel.kernel.sched.Footprinted;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.sched.Runtime;

/**
 * The lifetime tracker of one execution: every {@link KObject} created while it runs, whether it
 * was freed, and the references the scenario declared as expected at the end.
 *
 * <ul>
 *   <li>freeing twice, or dropping a count below zero: {@code double-release} (reported by the
 *       owner's put path through {@link #free});</li>
 *   <li>touching a freed object: {@code use-after-free};</li>
 *   <li>at the end, a live object whose count differs from what was declared: {@code ref-leak}
 *       ({@link #checkLeaks()}).</li>
 * </ul>
 *
 * Under the deterministic runtime only the running task touches it (one task runs at a time).
 * Under the free-running runtime ({@link #perThread()}) each task's thread registers the objects
 * it creates in a list of its own, without a lock ({@link #registerInto}), and freeing is
 * synchronised. New objects
 * register with the tracker of the runtime that runs the creating thread ({@link Kernel#rtOrNull}),
 * while that tracker is {@linkplain #activate() active}: no static state, so explorations on
 * different threads ({@code --jobs N}) never see each other's objects.
 */
public final class Lifetimes extends Footprinted {
    /** Set by the runtime for the duration of one execution (the runtime's own thread). */
    private boolean active;

    private final ArrayList<KObject> objects = new ArrayList<>();
    /**
     * {@link #perThread()} only: the list each thread registers its objects in (thread-confined,
     * set by {@link #registerInto}); threads without one use {@link #objects}. Null otherwise.
     */
    private final ThreadLocal<ArrayList<KObject>> ownList;
    /**
     * {@link #perThread()} only: every list handed out by {@link #threadList()}, in the order
     * handed out. Guarded by {@code this}.
     */
    private final ArrayList<ArrayList<KObject>> threadLists = new ArrayList<>();
    /**
     * The runtime to tell about every touch, free and creation (for partial-order reduction), or
     * null. Creations are all reported as acting on this tracker too, since the model names
     * objects in creation order: two allocations never commute.
     */
    private Runtime recorder;

    /** A tracker for one execution of the deterministic runtime: one list, one task at a time. */
    /** This execution's happens-before for data races, made when first asked for. */
    private kmodel.kernel.race.HappensBefore happensBefore;

    /** This execution's happens-before (data races; see {@code kmodel.kernel.race}). */
    public kmodel.kernel.race.HappensBefore happensBefore() {
        if (happensBefore == null) {
            happensBefore = new kmodel.kernel.race.HappensBefore();
        }
        return happensBefore;
    }

    /** This execution's happens-before if a plain access has asked for it, else null. */
    public kmodel.kernel.race.HappensBefore happensBeforeIfAny() {
        return happensBefore;
    }

    public Lifetimes() {
        this(false);
    }

    private Lifetimes(boolean perThread) {
        this.ownList = perThread ? new ThreadLocal<>() : null;
    }

    /**
     * A tracker for the free-running runtime, whose tasks run at the same time: each task's thread
     * registers what it creates in a list of its own ({@link #threadList()},
     * {@link #registerInto}). No lock is taken per object, and the tracker's contents depend on
     * what each task did, not on how the tasks interleaved: a model checker that matches states
     * (Java PathFinder) sees the same state after two interleavings that differ only in the order
     * of independent allocations.
     */
    public static Lifetimes perThread() {
        return new Lifetimes(true);
    }

    /**
     * {@link #perThread()}: a new list for the objects one task will create, remembered here (the
     * runtime asks for it when it spawns the task, so the lists are in spawn order).
     */
    public ArrayList<KObject> threadList() {
        ArrayList<KObject> l = new ArrayList<>();
        synchronized (this) {
            threadLists.add(l);
        }
        return l;
    }

    /**
     * {@link #perThread()}: the calling thread registers the objects it creates in {@code list}
     * (from {@link #threadList()}; only this thread adds to it) from now on.
     */
    public void registerInto(ArrayList<KObject> list) {
        ownList.set(list);
    }

    /** Reports every access to a tracked object to {@code rt} ({@link Runtime#access}). */
    public void recordAccessesTo(Runtime rt) {
        this.recorder = rt;
    }

    static void accessed(Object o) {
        Lifetimes l = activeOrNull();
        if (l != null && l.recorder != null) {
            l.recorder.access(o);
        }
    }

    /** Makes this tracker the one new objects register with (the runtime does this per execution). */
    public void activate() {
        active = true;
    }

    /** Stops registering new objects with this tracker. */
    public void deactivate() {
        active = false;
    }

    /** The active tracker of the calling thread's runtime, or null. */
    static Lifetimes activeOrNull() {
        Runtime rt = Kernel.rtOrNull();
        Lifetimes l = rt != null ? rt.lifetimes() : null;
        return l != null && l.active ? l : null;
    }

    /**
     * Registers a new object: in the calling thread's own list ({@link #registerInto}), else in
     * the tracker's list, synchronised (uncontended: under the deterministic runtime one task runs
     * at a time; under the free-running runtime only the booting thread has no list of its own).
     */
    void register(KObject o) {
        if (recorder != null) {
            recorder.access(this);
            recorder.access(o);
        }
        ArrayList<KObject> own = ownList != null ? ownList.get() : null;
        if (own != null) {
            o.slot = own.size();
            own.add(o);
            return;
        }
        synchronized (this) {
            o.slot = objects.size();
            objects.add(o);
        }
    }

    /** Marks {@code o} freed; one atomic step, so that two racing frees are a double release on real threads too. */
    void free(KObject o) {
        synchronized (this) {
            if (!o.freed) {
                o.freed = true;
                return;
            }
        }
        Kernel.fail(ViolationKind.DOUBLE_RELEASE, o.kind() + " " + o.name() + " freed twice");
    }

    static void useAfterFree(KObject o) {
        Kernel.fail(ViolationKind.USE_AFTER_FREE, o.kind() + " " + o.name() + " touched after it was freed");
    }

    /** Declares that {@code o} legitimately holds {@code refs} references at the end, and why. */
    public void expect(KObject o, int refs, String why) {
        o.expectedRefs = refs;
        o.expectedWhy = why;
    }

    /**
     * Every object registered in this execution: in creation order; with {@link #perThread()},
     * those of the booting thread, then each task's in creation order, task by task (a copy;
     * read it once the tasks have exited).
     */
    public List<KObject> objects() {
        synchronized (this) {
            if (threadLists.isEmpty()) {
                return objects;
            }
            ArrayList<KObject> all = new ArrayList<>(objects);
            for (int i = 0; i < threadLists.size(); i++) {
                all.addAll(threadLists.get(i));
            }
            return all;
        }
    }

    /**
     * include/linux/page_ref.h et al. at the end of a run: every live object must hold exactly
     * the references declared for it; otherwise {@code ref-leak}.
     */
    public void checkLeaks() {
        List<KObject> all = objects();
        for (int i = 0; i < all.size(); i++) {
            KObject o = all.get(i);
            if (o.freed) {
                continue;
            }
            int refs = o.refs();
            if (refs != o.expectedRefs) {
                String owner = o.expectedWhy != null ? " (" + o.expectedWhy + ")" : "";
                Kernel.fail(ViolationKind.REF_LEAK, o.kind() + " " + o.name() + " holds " + refs
                        + " reference(s) at the end, expected " + o.expectedRefs + owner);
            }
        }
    }
}
