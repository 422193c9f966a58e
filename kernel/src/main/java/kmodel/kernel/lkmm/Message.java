package kmodel.kernel.lkmm;

/**
 * One store in a location's modification order: its value, its timestamp, the view it releases
 * (what a task that acquires it must see), and who wrote it.
 */
public final class Message {
    /** The location. */
    public final int loc;
    /** Its place in the location's modification order. */
    public final double ts;
    /** The value stored (a location of numbers: atomics, flags words, locks). */
    public final long value;
    /**
     * The value stored in a location of references ({@code Shared<T>}, {@code Plain<T>} in the
     * model under {@code --memory-model lkmm}); null in a location of numbers.
     */
    public final Object ref;
    /** The view released with it (always covers the message itself). */
    public final View view;
    /** The writing task, -1 for the initial store. */
    public final int task;
    /** The writer's event number (unique per run), -1 for the initial store. */
    public final int event;
    /** Whether it was written by a read-modify-write that read the store just before it. */
    public final boolean rmw;

    Message(int loc, double ts, long value, View view, int task, int event, boolean rmw) {
        this(loc, ts, value, null, view, task, event, rmw);
    }

    Message(int loc, double ts, long value, Object ref, View view, int task, int event, boolean rmw) {
        this.loc = loc;
        this.ts = ts;
        this.value = value;
        this.ref = ref;
        this.view = view;
        this.task = task;
        this.event = event;
        this.rmw = rmw;
    }

    @Override
    public String toString() {
        return (task < 0 ? "init" : "P" + task + "#" + event) + ":" + value;
    }
}
