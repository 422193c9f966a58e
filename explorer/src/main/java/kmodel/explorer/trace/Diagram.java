package kmodel.explorer.trace;

import com.google.common.base.Strings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import kmodel.kernel.sched.TraceEvent;

/**
 * Draws an execution as columns, one per task (interrupt-context completions share the "irq"
 * column), one row per interesting event, like the t1..t4 picture of seed 000:
 *
 * <pre>
 *   step  waiter                     waker
 *   ----  -------------------------  -------------------------
 *      4  cond == false                |
 *      9  |                          cond = true
 *     12  |                          wake_up(q): nobody queued
 *     15  prepare_to_wait(q)           |
 *     18  sleeps TASK_UNINTERRUPTIBLE  exits
 * </pre>
 *
 * A column shows {@code |} between the first and last event of its task. When any event names
 * the modelled kernel function it happened in ({@link TraceEvent#function()}), a
 * {@code function} column after the step says it on each such row, so that a reader can put
 * the kernel source beside the diagram. The rendering is a pure function of the events, so a
 * replayed schedule prints the same diagram byte for byte.
 *
 * <p>Under {@code --memory-model lkmm} every load that had a choice of stores is a row of its
 * own, saying which store it read and who wrote it, and, when that is not the coherence-last
 * store, which one is: {@code reads cond = false (init), stale: the latest is true (waker)}. A
 * load with one store to read (what SC reads too) is not drawn.
 */
public final class Diagram {
    private static final int MAX_WIDTH = 38;
    /** The function column's widest: longer names are cut. */
    private static final int MAX_FUNCTION_WIDTH = 30;

    private Diagram() {
    }

    /** Renders the events (all of them; filter DETAIL events out first for the short form). */
    public static String render(List<TraceEvent> events) {
        LinkedHashMap<String, int[]> span = new LinkedHashMap<>();
        LinkedHashMap<String, Integer> width = new LinkedHashMap<>();
        for (int i = 0; i < events.size(); i++) {
            TraceEvent e = events.get(i);
            int[] s = span.get(e.column());
            if (s == null) {
                span.put(e.column(), new int[] {i, i});
                width.put(e.column(), Math.max(e.column().length(), 6));
            } else {
                s[1] = i;
            }
            width.put(e.column(), Math.min(MAX_WIDTH, Math.max(width.get(e.column()), e.text().length())));
        }
        List<String> columns = new ArrayList<>(span.keySet());
        int fnWidth = 0;
        for (TraceEvent e : events) {
            if (e.function() != null) {
                fnWidth = Math.min(MAX_FUNCTION_WIDTH, Math.max(Math.max(fnWidth, "function".length()), e.function().length()));
            }
        }
        StringBuilder out = new StringBuilder();
        int stepWidth = 6;
        out.append(Strings.padStart("step", stepWidth, ' '));
        if (fnWidth > 0) {
            out.append("  ").append(Strings.padEnd("function", fnWidth, ' '));
        }
        for (String c : columns) {
            out.append("  ").append(Strings.padEnd(c, width.get(c), ' '));
        }
        trimEnd(out);
        out.append('\n');
        out.append(Strings.padStart("----", stepWidth, ' '));
        if (fnWidth > 0) {
            out.append("  ").append(Strings.repeat("-", fnWidth));
        }
        for (String c : columns) {
            out.append("  ").append(Strings.repeat("-", width.get(c)));
        }
        out.append('\n');
        for (int i = 0; i < events.size(); i++) {
            TraceEvent e = events.get(i);
            List<String> lines = wrap(e.text(), width.get(e.column()));
            for (int l = 0; l < lines.size(); l++) {
                out.append(Strings.padStart(l == 0 ? Long.toString(e.step()) : "", stepWidth, ' '));
                if (fnWidth > 0) {
                    String fn = l == 0 && e.function() != null ? e.function() : "";
                    out.append("  ").append(Strings.padEnd(fn.length() > fnWidth ? fn.substring(0, fnWidth) : fn, fnWidth, ' '));
                }
                for (String c : columns) {
                    String cell;
                    if (c.equals(e.column())) {
                        cell = lines.get(l);
                    } else {
                        int[] s = span.get(c);
                        cell = i > s[0] && i < s[1] ? "|" : "";
                    }
                    out.append("  ").append(Strings.padEnd(cell, width.get(c), ' '));
                }
                trimEnd(out);
                out.append('\n');
            }
        }
        return out.toString();
    }

    /** Only the model-level events (the default diagram). */
    public static List<TraceEvent> info(List<TraceEvent> events) {
        List<TraceEvent> out = new ArrayList<>();
        for (TraceEvent e : events) {
            if (e.level() == TraceEvent.Level.INFO) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * Breaks {@code text} at spaces into lines of at most {@code w} characters, continuation lines
     * indented by two; a word longer than a line is cut where the line ends (a class name in an
     * oops, say). A space inside the indentation is no place to break: breaking there would add the
     * indentation back and never get shorter.
     */
    static List<String> wrap(String text, int w) {
        List<String> lines = new ArrayList<>();
        String rest = text;
        int indent = 0;
        while (rest.length() > w) {
            int cut = rest.lastIndexOf(' ', w);
            if (cut <= indent) {
                cut = w;
            }
            lines.add(rest.substring(0, cut));
            rest = "  " + rest.substring(cut).trim();
            indent = 2;
        }
        lines.add(rest);
        return lines;
    }

    private static void trimEnd(StringBuilder sb) {
        int n = sb.length();
        while (n > 0 && sb.charAt(n - 1) == ' ') {
            n--;
        }
        sb.setLength(n);
    }
}
