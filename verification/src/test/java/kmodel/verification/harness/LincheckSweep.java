package kmodel.verification.harness;

/**
 * Measures the harnesses under Lincheck, for the README's table (run by hand, never by the build):
 * {@code java <the lincheck execution's flags> -cp <test classpath> kmodel.verification.harness.LincheckSweep N
 * [HARNESS [BUG or -]]} prints one line per check.
 */
public final class LincheckSweep {
    private LincheckSweep() {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        for (Harness h : Harnesses.all()) {
            if (args.length > 1 && !h.name().equals(args[1])) {
                continue;
            }
            if (args.length <= 2 || args[2].equals("-")) {
                LincheckRun.check(h, null, n);
            }
            for (String b : h.hostedBugs()) {
                if (args.length <= 2 || args[2].equals(b)) {
                    LincheckRun.check(h, b, n);
                }
            }
        }
        System.exit(0);
    }
}
