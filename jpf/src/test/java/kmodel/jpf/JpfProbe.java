package kmodel.jpf;

/**
 * Runs under JPF: the marks a JPF test's body leaves for {@link JpfWatch}, which counts them in
 * the host JVM. A body calls {@link #end()} as its very last statement: a search that reports "no
 * errors" but never reached it did not run the body to its end (a classpath mistake, a thread
 * that JPF silently stopped), and the host fails it.
 */
public final class JpfProbe {
    private JpfProbe() {
    }

    /** The body of a JPF test reached its end, with every task of its harness joined. */
    public static void end() {
        // counted by JpfWatch.methodEntered
    }

    /** A task body reached its end (a body of a canary or a guard test; the harnesses have their own check). */
    public static void taskDone() {
        // counted by JpfWatch.methodEntered
    }
}
