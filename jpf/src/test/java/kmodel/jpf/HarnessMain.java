package kmodel.jpf;

import gov.nasa.jpf.vm.Verify;
import kmodel.kernel.Kconfig;
import kmodel.kernel.Violation;
import kmodel.kernel.sched.FreeRunningRuntime;
import kmodel.mm.MmOptions;
import kmodel.verification.harness.FreeRun;
import kmodel.verification.harness.Harness;
import kmodel.verification.harness.Harnesses;

/**
 * Runs under JPF: one free run of a harness ({@code args[0]}) with a catalog bug ({@code args[1]},
 * {@code -} for none; {@code args[2]} = {@code fix}: with the finding's candidate fix on), every data choice of the model ({@code Runtime.choose}) made by
 * {@link Verify#getInt}, so that JPF explores each alternative as it explores each interleaving. A
 * violation the run returns is thrown as an {@link AssertionError} (JPF: an uncaught exception); a
 * missed wake-up leaves tasks parked for ever (JPF: a deadlock); a clean run reaches
 * {@link JpfProbe#end()}.
 */
public final class HarnessMain {
    /** Third argument: the run with {@code PAGE_LOCK_WOKEN_KILLED_TRYLOCK=y}. */
    static final String WITH_FIX = "fix";
    /**
     * Third argument: the tasks on daemon threads, as on plain threads ({@link JpfGuardTest}
     * shows what JPF then misses).
     */
    static final String DAEMONS = "daemons";

    private HarnessMain() {
    }

    public static void main(String[] args) {
        Harness h = Harnesses.named(args[0]);
        String bug = args.length > 1 && !args[1].equals("-") ? args[1] : null;
        FreeRunningRuntime.Chooser chooser = (n, why) -> Verify.getInt(0, n - 1);

        Kconfig c = h.config(bug);
        if (args.length > 2 && args[2].equals(WITH_FIX)) {
            // the candidate fix of the v5.10 finding (docs/findings/killed-locker-strands-waiter.md)
            c = c.with(MmOptions.PAGE_LOCK_WOKEN_KILLED_TRYLOCK, true);
        }
        boolean daemons = args.length > 2 && args[2].equals(DAEMONS);
        Violation v = FreeRun.run(h.scenario(), c, chooser, daemons ? JpfPoints.YIELD_DAEMONS : JpfPoints.YIELD);
        if (v != null) {
            throw new AssertionError("kmodel violation " + v.summary());
        }
        JpfProbe.end();
    }
}
