package kmodel.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.ViolationKind;
import org.junit.jupiter.api.Test;

/**
 * kernel/task_work.c: the task_work list's checks. Adding an item that is still queued is a
 * {@code bug-on}; re-adding it from its own callback (after task_work_run took it) is allowed; and
 * a list made cyclic by a test does not hang {@code task_work_run()}: its iterations count against
 * the step bound, which stops the execution and names the looping task.
 */
class TaskWorkListTest {

    private static ExecutionResult run(Runnable body, long stepLimit) {
        Program p = new Program() {
            @Override
            public void boot(Runtime rt) {
                rt.spawn("t1", null, false, false, body);
            }

            @Override
            public String finish() {
                return "";
            }
        };
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                return rt.execute(p, Run.nonPreemptive(), Kconfig.defaults(), stepLimit, false, false);
            }
        });
    }

    private static CallbackHead work(String label, List<String> ran) {
        CallbackHead w = new CallbackHead();
        CallbackHead.initTaskWork(w, cb -> ran.add(cb.label));
        w.label = label;
        return w;
    }

    @Test
    void addingAnItemThatIsStillQueuedIsADoubleAdd() {
        List<String> ran = new ArrayList<>();
        ExecutionResult r = run(() -> {
            CallbackHead w = work("w", ran);
            Task me = Sched.current();
            Sched.taskWorkAdd(me, w, Sched.TWA_NONE);
            Sched.taskWorkAdd(me, w, Sched.TWA_NONE);
        }, 10_000);
        assertNotNull(r.violation(), "expected a bug-on");
        assertEquals(ViolationKind.BUG_ON, r.violation().kind());
        assertEquals("task_work_add double add: w is already queued on t1 (adding it to t1)", r.violation().getMessage());
    }

    @Test
    void anItemMayBeQueuedAgainOnceTaskWorkRunTookIt() {
        List<String> ran = new ArrayList<>();
        ExecutionResult r = run(() -> {
            CallbackHead w = work("w", ran);
            Task me = Sched.current();
            Sched.taskWorkAdd(me, w, Sched.TWA_NONE);
            Sched.taskWorkRun();
            Sched.taskWorkAdd(me, w, Sched.TWA_NONE);
            Sched.taskWorkRun();
        }, 10_000);
        assertNull(r.violation(), () -> r.violation().summary());
        assertEquals(List.of("w", "w"), ran);
    }

    /**
     * What the double-add check prevents, made by hand: an item whose {@code next} is itself.
     * {@code task_work_run()} would run it forever; the step bound stops it.
     */
    @Test
    void aCyclicTaskWorkListEndsAtTheStepBoundNamingTheTask() {
        List<String> ran = new ArrayList<>();
        ExecutionResult r = run(() -> {
            CallbackHead w = work("w", ran);
            Task me = Sched.current();
            Sched.taskWorkAdd(me, w, Sched.TWA_NONE);
            w.next = w; // corrupt: the list no longer ends
            Sched.taskWorkRun();
        }, 2_000);
        assertNull(r.violation(), () -> r.violation().summary());
        assertNotNull(r.stepBound(), "expected a step-bound stop");
        assertTrue(r.stepBound().startsWith("t1 was still running after 2000 steps, looping in task_work_run"),
                r.stepBound());
        /* Two scheduling points (task_work_add, task_work_run), then 1,998 iterations make 2,000. */
        assertEquals(1998, ran.size());
    }
}
