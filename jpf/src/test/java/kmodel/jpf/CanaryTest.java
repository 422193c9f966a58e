package kmodel.jpf;

import org.junit.Test;

/**
 * The canary that must fail: {@code mvn -Pjpf verify} passes only if JPF reports the textbook lost
 * wake-up ({@link Canary}) as a deadlock, and proves its correct twin with the body run to its end.
 * A JPF that runs nothing (a class path mistake: "no errors") fails the first test; one that runs
 * the body but stops it silently fails the second.
 */
public class CanaryTest extends JpfTestBase {

    @Test
    public void checkThenSleepIsFound() {
        if (verifyFinding("canary: check-then-sleep waiter", Expect.deadlock())) {
            Canary.run(true);
            JpfProbe.end();
        }
    }

    @Test
    public void prepareThenCheckIsProved() {
        if (verifyProof("canary twin: prepare_to_wait, then check")) {
            Canary.run(false);
            JpfProbe.end();
        }
    }
}
