package kmodel.jpf;

import gov.nasa.jpf.Config;
import gov.nasa.jpf.JPF;
import gov.nasa.jpf.util.test.TestJPF;

/**
 * Base of kmodel's JPF tests (JUnit 4, jpf-core's {@link TestJPF}). A test method reads
 *
 * <pre>
 * &#64;Test
 * public void textbookWaitqueue() {
 *     if (verifyProof("textbook-waitqueue")) {   // host JVM: runs JPF on this method, returns false
 *         ...                                    // under JPF: the body JPF explores
 *         JpfProbe.end();
 *     }
 * }
 * </pre>
 *
 * In the host JVM {@code verifyProof}/{@code verifyFinding} run JPF with kmodel's own
 * configuration ({@link JpfSettings}: nothing from {@code site.properties} or any
 * {@code jpf.properties}) on the calling test method, judge the outcome ({@link JpfOutcome}) and
 * record it ({@link JpfResults}); under JPF they return true so that the body runs.
 */
public abstract class JpfTestBase extends TestJPF {

    /** Host: the Config of the run of {@code testMethod}: kmodel's settings, never JPF's site/project stack. */
    @Override
    protected JPF createJPF(StackTraceElement testMethod, String[] args) {
        String[] extra = extraArgs();
        String[] all = new String[args.length + extra.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(extra, 0, all, args.length, extra.length);
        Config conf = JpfSettings.config(all);
        setTestTargetKeys(conf, testMethod);
        return new JPF(conf);
    }

    /**
     * JPF must prove the body: no property violation (no deadlock, no uncaught exception), a
     * search not cut by any constraint, and the body's {@link JpfProbe#end()} reached.
     */
    protected final boolean verifyProof(String label, String... args) {
        if (isJPFRun()) {
            return true;
        }
        JpfOutcome o = run(callerTestMethod(), label, args);
        JpfResults.record(o);
        o.assertProof();
        return false;
    }

    /**
     * JPF must find a violation of the body: a deadlock (a missed wake-up: tasks parked for ever),
     * or an uncaught exception whose text contains {@code expected} (the harness's violation, which
     * the body throws as an {@code AssertionError}); either if {@code expected} is null.
     */
    protected final boolean verifyFinding(String label, Expect expected, String... args) {
        if (isJPFRun()) {
            return true;
        }
        JpfOutcome o = run(callerTestMethod(), label, args);
        JpfResults.record(o);
        o.assertFinding(expected);
        return false;
    }

    /**
     * Host: runs JPF on the calling test method and returns what it reported, judging nothing
     * (for the tests that show a judgement failing); under JPF: null, and the body runs.
     */
    protected final JpfOutcome explore(String label, String... args) {
        if (isJPFRun()) {
            return null;
        }
        return run(callerTestMethod(), label, args);
    }

    /**
     * Host: runs JPF on {@code main(args)} of {@code target} (a class of the SUT, not a test
     * method), its search stopped after {@code maxStates} new states, records the outcome and
     * returns it for the caller to judge.
     */
    final JpfOutcome runMain(String label, JpfSettings.Granularity granularity, int maxStates, Class<?> target,
            String... mainArgs) {
        Config conf = JpfSettings.config(granularity, extraArgs());
        JpfSettings.budget(conf, maxStates);
        conf.put("target", target.getName());
        conf.put("target.args", String.join(",", mainArgs));
        JPF jpf = new JPF(conf);
        JpfOutcome o = run(jpf, label);
        JpfResults.record(o);
        return o;
    }

    /** Extra {@code +key=value} settings for experiments: {@code -Dkmodel.jpf.args="+a=b +c=d"} (none by default). */
    static String[] extraArgs() {
        String a = System.getProperty("kmodel.jpf.args", "").trim();
        return a.isEmpty() ? new String[0] : a.split("\\s+");
    }

    /** Host: runs JPF on {@code testMethod} with a {@link JpfWatch} and measures it. */
    final JpfOutcome run(StackTraceElement testMethod, String label, String... args) {
        return run(createJPF(testMethod, args), label);
    }

    /** Host: runs {@code jpf} with a {@link JpfWatch} (and the profile, if asked for) and measures it. */
    final JpfOutcome run(JPF jpf, String label) {
        JpfWatch watch = new JpfWatch();
        jpf.addListener(watch);
        JpfChoiceProfile profile = Boolean.getBoolean("kmodel.jpf.profile") ? new JpfChoiceProfile() : null;
        if (profile != null) {
            jpf.addListener(profile);
        }
        long t0 = System.nanoTime();
        jpf.run();
        long nanos = System.nanoTime() - t0;
        if (profile != null) {
            System.out.println(profile.top(40));
        }
        return JpfOutcome.of(label, jpf, watch, nanos);
    }

    /** The test method (of this test's class) that called the verify method. */
    private StackTraceElement callerTestMethod() {
        String cls = getClass().getName();
        for (StackTraceElement e : new Throwable().getStackTrace()) {
            if (e.getClassName().equals(cls)) {
                return new StackTraceElement(cls, e.getMethodName(), null, -1);
            }
        }
        throw new IllegalStateException("verify* must be called from a test method of " + cls);
    }
}
