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
 * Under the deterministic runtime only the running task touches it (one task runs at a time);
 * registration and freeing are synchronised for the free-running runtime. New objects
 * register with the tracker of the runtime that runs the creating thread ({@link Kernel#rtOrNull}),
 * while that tracker is {@linkplain #activate() active}: no static state, so explorations on
 * different threads ({@code --jobs N}) never see each other's objects.
 */
public final class Lifetimes extends Footprinted {
    /** Set by the runtime for the duration of one execution (the runtime's own thread). */
    private boolean active;

    private final ArrayList<KObject> objects = new ArrayList<>();
    /**
     * The runtime to tell about every touch, free and creation (for partial-order reduction), or
     * null. Creations are all reported as acting on this tracker too, since the model names
     * objects in creation order: two allocations never commute.
     */
    private Runtime recorder;

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
     * Registers a new object. Synchronised (uncontended under the deterministic runtime): under
     * the free-running runtime tasks on real threads create objects at the same time.
     */
    void register(KObject o) {
        if (recorder != null) {
            recorder.access(this);
            recorder.access(o);
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

    /** Every object registered in this execution, in creation order. */
    public List<KObject> objects() {
        return objects;
    }

    /**
     * include/linux/page_ref.h et al. at the end of a run: every live object must hold exactly
     * the references declared for it; otherwise {@code ref-leak}.
     */
    public void checkLeaks() {
        for (int i = 0; i < objects.size(); i++) {
            KObject o = objects.get(i);
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
