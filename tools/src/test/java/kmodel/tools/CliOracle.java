package kmodel.tools;

import java.util.ArrayList;
import java.util.List;

/**
 * What every run of the command line must look like, whatever its input: the oracle of the fuzz
 * properties ({@link CliFuzzProperties}).
 *
 * <ul>
 *   <li>A clean run (exit 0, 1 or 4) prints something on stdout and nothing on stderr.</li>
 *   <li>A refused input is exit 2, nothing on stdout, and exactly one line on stderr starting
 *       {@code kmodel: }.</li>
 *   <li>Never exit 3 (kmodel failed), any other code, or a {@link Throwable} escaping.</li>
 *   <li>No stack trace text on stderr ({@link #STACK_TRACE_MARKERS}, not counting what the
 *       input itself holds).</li>
 *   <li>The calling thread allocates at most {@link #MAX_ALLOCATED} bytes: an input may not
 *       make kmodel allocate what it claims to need (parsing, token decoding and inflating run
 *       on that thread).</li>
 * </ul>
 */
final class CliOracle {
    /** Text that only a stack trace or a raw exception name would put on stderr. */
    static final List<String> STACK_TRACE_MARKERS = List.of("\tat ", "at kmodel.", "at picocli.", "at java.",
            "java.lang.", "Exception", "Caused by");

    /**
     * The most bytes one run may allocate on the calling thread: 32 MiB. An error run allocates
     * about 1 MiB (most of it picocli building its model); inflating the largest token
     * {@code ReplayToken} accepts holds 1 MiB, twice.
     */
    static final long MAX_ALLOCATED = 32L << 20;

    private CliOracle() {
    }

    /** Everything wrong with {@code r}; empty when it ends the way every run must. */
    static List<String> problems(CliRun r) {
        List<String> p = new ArrayList<>();
        if (r.escaped != null) {
            p.add("a Throwable escaped: " + r.escaped);
            return p;
        }
        List<String> err = r.errLines();
        switch (r.code) {
            case 0:
            case 1:
            case Kmodel.EXIT_INCONCLUSIVE:
                if (!r.err.isEmpty()) {
                    p.add("exit " + r.code + " with output on stderr");
                }
                if (r.out.isEmpty()) {
                    p.add("exit " + r.code + " with nothing on stdout");
                }
                break;
            case Kmodel.EXIT_USAGE:
                if (!r.out.isEmpty()) {
                    p.add("an error with output on stdout");
                }
                if (err.size() != 1) {
                    p.add("an error of " + err.size() + " lines on stderr, not one");
                }
                if (err.isEmpty() || !err.get(0).startsWith("kmodel: ")) {
                    p.add("an error line that does not start 'kmodel: '");
                }
                break;
            case Kmodel.EXIT_INTERNAL:
                p.add("exit 3: kmodel itself failed (" + (err.isEmpty() ? "" : err.get(0)) + ")");
                break;
            default:
                p.add("unexpected exit code " + r.code);
                break;
        }
        for (String m : STACK_TRACE_MARKERS) {
            int inInput = 0;
            for (String a : r.args) {
                inInput += occurrences(a, m);
            }
            if (occurrences(r.err, m) > inInput) {
                p.add("stack trace text '" + m.replace("\t", "\\t") + "' on stderr");
            }
        }
        if (r.allocated > MAX_ALLOCATED) {
            p.add("allocated " + r.allocated + " bytes (more than " + MAX_ALLOCATED + ")");
        }
        return p;
    }

    private static int occurrences(String s, String m) {
        int n = 0;
        for (int i = s.indexOf(m); i >= 0; i = s.indexOf(m, i + 1)) {
            n++;
        }
        return n;
    }

    /** Fails with the run and its problems unless {@link #problems} is empty. */
    static void assertSound(CliRun r) {
        List<String> p = problems(r);
        if (!p.isEmpty()) {
            throw new AssertionError(String.join("; ", p) + "\n" + r);
        }
    }

    /** {@code s} in double quotes, with control characters and non-ASCII escaped (for reports). */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        int n = Math.min(s.length(), 300);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04x", (int) c));
            }
        }
        if (s.length() > n) {
            sb.append("...(").append(s.length()).append(" chars)");
        }
        return sb.append('"').toString();
    }
}
