package kmodel.explorer.search;

import java.util.Arrays;

/**
 * The decisions of one execution, in order: for each real scheduling choice the id of the task
 * picked, for each data choice the value picked. Replaying them reproduces the execution.
 */
public final class Schedule {
    private int[] a = new int[64];
    private int n;

    public Schedule() {
    }

    private Schedule(int[] values) {
        this.a = values.length == 0 ? new int[8] : values.clone();
        this.n = values.length;
    }

    /** A schedule from its decisions. */
    public static Schedule of(int[] decisions) {
        return new Schedule(decisions);
    }

    void add(int v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, n * 2);
        }
        a[n++] = v;
    }

    void clear() {
        n = 0;
    }

    /** Number of decisions. */
    public int size() {
        return n;
    }

    /** Decision {@code i}. */
    public int get(int i) {
        return a[i];
    }

    /** The decisions as an array. */
    public int[] toArray() {
        return Arrays.copyOf(a, n);
    }

    /** A copy. */
    public Schedule copy() {
        return of(toArray());
    }
}
