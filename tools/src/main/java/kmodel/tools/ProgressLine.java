package kmodel.tools;

import java.io.PrintWriter;
import java.lang.reflect.Method;
import kmodel.explorer.Progress;

/**
 * The progress line of a long {@code kmodel check} on a terminal: one line on stderr, rewritten
 * in place ({@code \r}, then erase to the end of the line) at most {@link #PERIOD_NANOS} apart,
 * cut to the terminal's width ({@code -Dkmodel.columns} from {@code ./kmodel}, else {@code COLUMNS},
 * else 80) so that it never wraps, and erased before
 * the scenario's result is printed. Nothing is written when it is off.
 *
 * <p>Whether stderr is a terminal: {@code ./kmodel} tells the JVM ({@code -Dkmodel.stderr.tty},
 * from the shell's {@code [ -t 2 ]}); without that, {@link System#console()} is asked (on JDK 22
 * and later, through {@code Console.isTerminal()}, since a console object exists there even when
 * output is redirected). {@code --progress} and {@code --no-progress} override both.
 */
final class ProgressLine {
    /** At most four lines a second. */
    static final long PERIOD_NANOS = 250_000_000L;
    private static final String ERASE = "\r\u001b[K";

    private final PrintWriter err;
    private final int width;
    private String prefix = "";
    private boolean shown;

    ProgressLine(PrintWriter err) {
        this.err = err;
        this.width = terminalWidth();
    }

    /** Sets what goes before each line, e.g. {@code [3/14] }. */
    void prefix(String p) {
        this.prefix = p;
    }

    /** Draws {@code p} over the line shown before. */
    void show(Progress p) {
        show(p.line());
    }

    /** Draws {@code text} (after the prefix) over the line shown before. */
    void show(String text) {
        String line = prefix + text;
        if (line.length() > width - 1) {
            line = line.substring(0, Math.max(0, width - 1));
        }
        err.print(ERASE + line);
        err.flush();
        shown = true;
    }

    /** Erases the line, if one is shown. */
    void clear() {
        if (shown) {
            err.print(ERASE);
            err.flush();
            shown = false;
        }
    }

    /** Whether stderr is a terminal, as far as the JVM can tell; see the class comment. */
    static boolean stderrIsTerminal() {
        String told = System.getProperty("kmodel.stderr.tty");
        if (told != null) {
            return Boolean.parseBoolean(told);
        }
        Object console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = console.getClass().getMethod("isTerminal");
            return Boolean.TRUE.equals(isTerminal.invoke(console));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true; // JDK 17 to 21: a console exists only on a terminal
        }
    }

    private static int terminalWidth() {
        String columns = System.getProperty("kmodel.columns", System.getenv("COLUMNS"));
        if (columns != null && columns.matches("\\d{2,4}")) {
            return Integer.parseInt(columns);
        }
        return 80;
    }
}
