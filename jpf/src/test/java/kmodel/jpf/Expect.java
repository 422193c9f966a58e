package kmodel.jpf;

/**
 * The violation a {@link JpfTestBase#verifyFinding} run must report: a JPF deadlock (tasks parked
 * for ever: the free-running runtime's missed wake-up), an uncaught exception whose text contains a
 * given string (a harness's violation, thrown by the test body as an {@code AssertionError}), or
 * either.
 */
public final class Expect {
    final boolean deadlock;
    final String exceptionText;

    private Expect(boolean deadlock, String exceptionText) {
        this.deadlock = deadlock;
        this.exceptionText = exceptionText;
    }

    /** A deadlock only. */
    public static Expect deadlock() {
        return new Expect(true, null);
    }

    /** An uncaught exception whose class name or message contains {@code text}. */
    public static Expect exception(String text) {
        return new Expect(false, text);
    }

    /** A deadlock, or an uncaught exception containing {@code text}. */
    public static Expect deadlockOr(String text) {
        return new Expect(true, text);
    }

    @Override
    public String toString() {
        if (deadlock && exceptionText != null) {
            return "a deadlock or an uncaught exception containing \"" + exceptionText + "\"";
        }
        return deadlock ? "a deadlock" : "an uncaught exception containing \"" + exceptionText + "\"";
    }
}
