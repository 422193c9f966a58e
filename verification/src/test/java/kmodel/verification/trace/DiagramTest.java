package kmodel.verification.trace;

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
}
