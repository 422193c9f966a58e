package kmodel.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Kernel;
import kmodel.kernel.ViolationKind;
import kmodel.kernel.atomic.AtomicT;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A crash is not a BUG_ON: a Java exception thrown by model code is an {@code oops} naming the
 * exception and the model frame, so that no test expecting a {@code bug-on} passes on it.
 */
class OopsTest {

    /** Stands in for model code with a bug: follows a pointer that is NULL. */
    static final class Mapping {
        AtomicT nrpages;
    }

    /** The model frame the oops must name. */
    static int pagesOf(Mapping m) {
        return m.nrpages.read();
    }

    /** Model code that hands a bad index to the JDK: the oops names this caller, not java.util. */
    static String firstOf(List<String> l) {
        return l.get(0);
    }

    @Test
    void aNullDereferenceInATaskIsAnOopsNamingTheExceptionAndTheModelFrame() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> pagesOf(new Mapping()));
        assertNotNull(r.violation());
        assertEquals(ViolationKind.OOPS, r.violation().kind(), r.violation()::summary);
        assertEquals("oops", r.violation().kind().label());
        String m = r.violation().getMessage();
        assertTrue(m.startsWith("oops in t1: java.lang.NullPointerException"), m);
        assertTrue(m.contains(" at kmodel.kernel.sched.OopsTest.pagesOf(OopsTest.java:"), m);
        assertTrue(r.oops() instanceof NullPointerException, () -> String.valueOf(r.oops()));
        assertEquals("t1", r.violation().task());
    }

    @Test
    void anExceptionThrownInsideTheJdkNamesItsModelCaller() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> firstOf(new ArrayList<>()));
        assertEquals(ViolationKind.OOPS, r.violation().kind(), r.violation()::summary);
        String m = r.violation().getMessage();
        assertTrue(m.startsWith("oops in t1: java.lang.IndexOutOfBoundsException"), m);
        assertTrue(m.contains(" at kmodel.kernel.sched.OopsTest.firstOf(OopsTest.java:"), m);
    }

    /** Model code that hands the runtime a NULL task: the oops names this caller, not the runtime. */
    static void wakeNobody() {
        Kernel.rt().tryToWakeUp(null, Task.TASK_NORMAL);
    }

    @Test
    void anExceptionThrownInsideTheRuntimeNamesItsModelCaller() {
        ExecutionResult r = Run.task(Kconfig.defaults(), OopsTest::wakeNobody);
        assertEquals(ViolationKind.OOPS, r.violation().kind(), r.violation()::summary);
        String m = r.violation().getMessage();
        assertTrue(r.oops().getStackTrace()[0].getClassName().equals(DeterministicRuntime.class.getName()),
                () -> "thrown inside the runtime: " + r.oops().getStackTrace()[0]);
        assertTrue(m.contains(" at kmodel.kernel.sched.OopsTest.wakeNobody(OopsTest.java:"), m);
    }

    @Test
    void aBugOnRaisedOnPurposeIsStillABugOnAndNoOops() {
        ExecutionResult r = Run.task(Kconfig.defaults(), () -> Kernel.BUG_ON(true, "page->mapping != mapping"));
        assertEquals(ViolationKind.BUG_ON, r.violation().kind(), r.violation()::summary);
        assertEquals("BUG_ON: page->mapping != mapping", r.violation().getMessage());
        assertNull(r.oops());
    }

    @Test
    void theOopsIsDrawnInTheTraceAtTheTaskThatCrashed() {
        ExecutionResult r = Run.once(new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("reader", null, false, false, () -> pagesOf(new Mapping()));
            }

            @Override
            public String finish() {
                return "";
            }
        }, Run.nonPreemptive(), Kconfig.defaults(), true);
        TraceEvent last = r.trace().get(r.trace().size() - 1);
        assertEquals("reader", last.task());
        assertTrue(last.text().startsWith("oops: oops in reader: java.lang.NullPointerException"), last.text());
    }

    /**
     * A strategy that fails (a replay token whose schedule does not fit the scenario) when it is
     * asked who runs after a task exited: that question is asked on the exiting task's worker
     * thread, outside the task's body. The failure must reach the caller of {@code execute()} as
     * the execution's oops, not kill the worker and leave the controller waiting for a baton that
     * never comes (a forged replay token once hung the command line that way). The timeout is a
     * hang guard for the build, not a speed assertion.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aStrategyThatFailsAfterATaskExitsEndsTheExecutionWithItsExceptionInsteadOfHanging() {
        IllegalStateException mismatch = new IllegalStateException("at choice 1 task #5 is not runnable");
        Strategy failing = new Strategy() {
            int picks;

            @Override
            public void beginExecution() {
            }

            @Override
            public int pickTask(int[] ids, int n, int current) {
                if (++picks > 1) {
                    throw mismatch;
                }
                return ids[0];
            }

            @Override
            public int pickValue(int n) {
                return 0;
            }
        };
        ExecutionResult r = Run.once(new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("t1", null, false, false, () -> { });
                rt.spawn("t2", null, false, false, () -> { });
                rt.spawn("t3", null, false, false, () -> { });
            }

            @Override
            public String finish() {
                return "";
            }
        }, failing, Kconfig.defaults(), false);
        assertTrue(r.oops() == mismatch, () -> "oops: " + r.oops());
        assertEquals(ViolationKind.OOPS, r.violation().kind(), r.violation()::summary);
        assertTrue(r.violation().getMessage().contains("at choice 1 task #5 is not runnable"), r.violation()::getMessage);
    }
}
