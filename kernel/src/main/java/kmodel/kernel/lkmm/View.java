package kmodel.kernel.lkmm;

import java.util.Arrays;

/**
 * A view: per location the earliest store (by modification-order timestamp) a task may still
 * read or write after. Timestamps are doubles so that a store can be placed between two others
 * (promising-semantics style); absent locations are at the initial store, timestamp 0.
 */
public final class View {
    private double[] ts;

    public View() {
        this.ts = new double[0];
    }

    private View(double[] ts) {
        this.ts = ts;
    }

    public View copy() {
        return new View(ts.clone());
    }

    /** The timestamp for {@code loc} (0: the initial store). */
    public double get(int loc) {
        return loc < ts.length ? ts[loc] : 0;
    }

    /** Raises {@code loc} to at least {@code t}. */
    public void raise(int loc, double t) {
        if (t <= get(loc)) {
            return;
        }
        if (loc >= ts.length) {
            ts = Arrays.copyOf(ts, loc + 1);
        }
        ts[loc] = t;
    }

    /** This := this joined with {@code o} (per location the later timestamp). */
    public void join(View o) {
        for (int i = 0; i < o.ts.length; i++) {
            raise(i, o.ts[i]);
        }
    }

    /** Whether every location of {@code o} is at or before this view's. */
    public boolean covers(View o) {
        for (int i = 0; i < o.ts.length; i++) {
            if (o.ts[i] > get(i)) {
                return false;
            }
        }
        return true;
    }

    /** The number of locations this view may name (for canonical keys). */
    int width() {
        return ts.length;
    }
}
