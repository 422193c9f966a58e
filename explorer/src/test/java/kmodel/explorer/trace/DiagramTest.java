package kmodel.explorer.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import kmodel.kernel.sched.TraceEvent;
import org.junit.jupiter.api.Test;

class DiagramTest {

    @Test
    void aWordLongerThanItsColumnIsCutAndTheWrapEnds() {
        String frame = "kmodel.mm.PageFlags.PageLocked(PageFlags.java:123)";
        List<String> lines = Diagram.wrap("oops in t1: java.lang.NullPointerException at " + frame, 20);
        for (String l : lines) {
            assertTrue(l.length() <= 20, () -> "'" + l + "' in " + lines);
        }
        StringBuilder joined = new StringBuilder();
        for (String l : lines) {
            joined.append(l.strip());
        }
        assertTrue(joined.toString().endsWith("at" + frame), joined::toString);
    }

    @Test
    void wordsBreakAtSpacesWithContinuationLinesIndented() {
        assertEquals(List.of("sleeps", "  TASK_UNINTERRUPTIBLE", "  on q"), Diagram.wrap("sleeps TASK_UNINTERRUPTIBLE on q", 22));
    }

    @Test
    void anOopsWithALongFrameIsDrawnInItsColumn() {
        String text = "oops: oops in t1: java.lang.NullPointerException: Cannot invoke "
                + "\"kmodel.kernel.atomic.AtomicT.read()\" because \"m.nrpages\" is null at "
                + "kmodel.kernel.sched.OopsTest.pagesOf(OopsTest.java:29)";
        String d = Diagram.render(List.of(new TraceEvent(3, "t1", "t1", text, TraceEvent.Level.INFO)));
        String[] lines = d.split("\n");
        assertEquals("  step  t1", lines[0]);
        assertTrue(lines.length > 4, d);
        for (String l : lines) {
            assertTrue(l.length() <= "  step  ".length() + 38, () -> "'" + l + "' in\n" + d);
        }
    }

    @Test
    void aFunctionColumnNamesTheKernelFunctionOfEachRow() {
        String d = Diagram.render(List.of(
                new TraceEvent(3, "t1", "t1", "sleeps TASK_UNINTERRUPTIBLE", TraceEvent.Level.INFO, "wait_on_page_bit_common"),
                new TraceEvent(5, "t2", "t2", "wakes t1", TraceEvent.Level.INFO, "wake_page_function"),
                new TraceEvent(6, "t2", "t2", "exits", TraceEvent.Level.INFO)));
        assertEquals(String.join("\n",
                "  step  function                 t1                           t2",
                "  ----  -----------------------  ---------------------------  --------",
                "     3  wait_on_page_bit_common  sleeps TASK_UNINTERRUPTIBLE",
                "     5  wake_page_function                                    wakes t1",
                "     6                                                        exits",
                ""), d);
    }

    @Test
    void withoutFunctionsThereIsNoFunctionColumn() {
        String d = Diagram.render(List.of(new TraceEvent(1, "t1", "t1", "exits", TraceEvent.Level.INFO)));
        assertEquals("  step  t1\n  ----  ------\n     1  exits\n", d);
    }
}
