package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The progress line's text: short enough for a terminal line, the share only when there is one. */
class ProgressTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aBoundedSearchShowsItsBoundAndShare() {
        Progress p = new Progress("read-error", "exhaustive, preemption bound 3", 1_234_567, 27 * S, 0.416);
        assertEquals("read-error  1,234,567 executions  45,725/s  0:27  bound 3  ~41%", p.line());
    }

    @Test
    void aReducedSearchUnderWayIsUnboundedNotComplete() {
        Progress p = new Progress("textbook-refcount", "exhaustive, complete (source-DPOR with sleep sets)", 600, 2 * S, 0.5);
        assertEquals("textbook-refcount  600 executions  300/s  0:02  unbounded, dpor  ~50%", p.line());
        Progress plain = new Progress("textbook-refcount", "exhaustive, complete (plain DFS, no reduction)", 600, 2 * S, 0);
        assertEquals("textbook-refcount  600 executions  300/s  0:02  unbounded  ~0%", plain.line());
    }

    @Test
    void noShareIsShownWhenNoneCanBeEstimatedAndHoursAreShownPastTheFirst() {
        Progress p = new Progress("x", "exhaustive, preemption bound 2", 7_200, 3_723 * S, Double.NaN);
        assertEquals("x  7,200 executions  2/s  1:02:03  bound 2", p.line());
    }
}
