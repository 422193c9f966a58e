package kmodel.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import kmodel.kernel.atomic.Bitops;
import kmodel.kernel.atomic.FlagsWord;
import kmodel.kernel.sched.CallbackHead;
import kmodel.kernel.sched.Sched;
import kmodel.kernel.sched.Task;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every lockless read of state that another task changes is a scheduling point of its own, and
 * the explorer really branches there. Each test runs a two-task program: the reader reads a flag
 * word ({@code test_bit}, already a point) and then the state under test; the writer sets the
 * bit and then changes that state. The outcome {@code bit=0 state=1} (the bit read before the
 * writer ran, the state read after it finished) exists only if the second read is a point of its
 * own: folded into the {@code test_bit} step, both reads would see the writer all before or all
 * after its {@code set_bit}. Each test also runs the folded variant (the same read without a
 * point, {@code peek...}) and shows that it never yields that outcome, so the check has teeth.
 *
 * <p>Not split, on purpose: {@code __schedule()}'s {@code signal_pending_state()} test (under the
 * run-queue lock, one step with the dequeue); {@code PageLocked}/{@code PageWriteback}/
 * {@code PageUptodate} (already {@code test_bit} points); {@code waitqueue_active()} and
 * {@code list_empty_careful()} (already points); {@code list_empty()} on a wait entry and a
 * completion's {@code done} (read under the queue lock).
 */
@Tag("modelcheck")
class GranularityModelCheck {

    /** Which read of the reader's own task state is under test. */
    enum Read {
        SIGNAL_PENDING, FATAL_SIGNAL_PENDING, SIGNAL_PENDING_STATE, TASK_WORK_PENDING,
        /** The writer's {@code PF_EXITING}, read by the reader (io_req_task_work_add()). */
        TASK_EXITING,
        /** The folded variants: the same values read in the step before, with no point. */
        FOLDED_SIGNAL, FOLDED_TASK_WORK, FOLDED_EXITING
    }

    static final class World {
        final FlagsWord flags = new FlagsWord("flags");
        final CallbackHead work = new CallbackHead();
        Task reader;
        Task writer;
        String outcome = "";

        World() {
            CallbackHead.initTaskWork(work, cb -> { });
        }

        void reader(Read read) {
            boolean bit = Bitops.testBit(0, flags);
            boolean state;
            switch (read) {
                case SIGNAL_PENDING:
                    state = Sched.signalPending(reader);
                    break;
                case FATAL_SIGNAL_PENDING:
                    state = Sched.fatalSignalPending(reader);
                    break;
                case SIGNAL_PENDING_STATE:
                    state = Sched.signalPendingState(Task.TASK_KILLABLE, reader);
                    break;
                case TASK_WORK_PENDING:
                    state = Sched.taskWorkPending(reader);
                    break;
                case TASK_EXITING:
                    state = Sched.taskExiting(writer);
                    break;
                case FOLDED_SIGNAL:
                    state = reader.peekSignalPending();
                    break;
                case FOLDED_EXITING:
                    state = (writer.flags() & Task.PF_EXITING) != 0;
                    break;
                default:
                    state = reader.hasTaskWork();
                    break;
            }
            outcome = "bit=" + (bit ? 1 : 0) + " state=" + (state ? 1 : 0);
            if (reader.hasTaskWork()) {
                Sched.taskWorkRun();
            }
        }

        void writer(Read read) {
            Bitops.setBit(0, flags);
            if (read == Read.TASK_WORK_PENDING || read == Read.FOLDED_TASK_WORK) {
                Sched.taskWorkAdd(reader, work, Sched.TWA_NONE);
            } else if (read == Read.TASK_EXITING || read == Read.FOLDED_EXITING) {
                Sched.doExit();
            } else {
                Sched.sendSigkill(reader);
            }
        }
    }

    private static Set<String> outcomes(Read read) {
        TestTarget<World> s = TestTarget.<World>named("split-" + read.name().toLowerCase(), "a read racing a writer")
                .setup(World::new)
                .tasks((w, sc) -> {
                    w.reader = sc.task("reader", () -> w.reader(read));
                    w.writer = sc.task("writer", () -> w.writer(read));
                })
                .outcome(w -> w.outcome)
                .build();
        CheckResult r = ModelCheck.exhaustive(s).preemptions(ModelCheck.UNBOUNDED).reduction(false).run();
        assertTrue(r.passed(), r::summaryLine);
        return new TreeSet<>(r.outcomes());
    }

    @Test
    void signalPendingIsAPointOfItsOwn() {
        assertEquals(Set.of("bit=0 state=0", "bit=0 state=1", "bit=1 state=0", "bit=1 state=1"),
                outcomes(Read.SIGNAL_PENDING));
    }

    @Test
    void fatalSignalPendingIsAPointOfItsOwn() {
        assertTrue(outcomes(Read.FATAL_SIGNAL_PENDING).contains("bit=0 state=1"));
    }

    @Test
    void signalPendingStateIsAPointOfItsOwn() {
        assertTrue(outcomes(Read.SIGNAL_PENDING_STATE).contains("bit=0 state=1"));
    }

    @Test
    void taskWorkPendingIsAPointOfItsOwn() {
        assertTrue(outcomes(Read.TASK_WORK_PENDING).contains("bit=0 state=1"));
    }

    @Test
    void anotherTasksExitingFlagIsAPointOfItsOwn() {
        assertTrue(outcomes(Read.TASK_EXITING).contains("bit=0 state=1"));
    }

    @Test
    void aFoldedReadNeverSeesTheWriterHalfWay() {
        Set<String> signal = outcomes(Read.FOLDED_SIGNAL);
        assertFalse(signal.contains("bit=0 state=1"), signal::toString);
        assertTrue(signal.contains("bit=1 state=0"), signal::toString);
        Set<String> work = outcomes(Read.FOLDED_TASK_WORK);
        assertFalse(work.contains("bit=0 state=1"), work::toString);
        assertTrue(work.contains("bit=1 state=0"), work::toString);
        Set<String> exiting = outcomes(Read.FOLDED_EXITING);
        assertFalse(exiting.contains("bit=0 state=1"), exiting::toString);
        assertTrue(exiting.contains("bit=1 state=0"), exiting::toString);
    }
}
