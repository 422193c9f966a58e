package kmodel.verification;

import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.verification.world.Scenario;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.ExplorationLimitException;
import kmodel.kernel.sched.FieldAudit;
import kmodel.explorer.search.AuditClassLoader;
import kmodel.explorer.search.FootprintAuditor;
import kmodel.explorer.search.UnreportedAccessException;

/**
 * The footprint audit (issue 25, {@code ./kmodel check --audit-footprints}): a reduced check run
 * on a copy of the model whose every plain field and array element access is seen
 * ({@link AuditClassLoader}) and checked against the footprints the steps reported
 * ({@link FootprintAuditor}). A scenario whose model touches shared state that no footprint
 * covers comes out as an {@code ERROR} naming the field and the two tasks, never as a pass.
 *
 * <p>One audit holds one class loader: the scenarios checked through it share the rewritten
 * classes (and their JIT warm-up). The check inside runs on one job, unsplit, with the reduction
 * on (the audit checks the footprints the reduction relies on).
 */
public final class FootprintAudit implements AutoCloseable {
    /** What an audited check found. */
    public static final class Result {
        /** {@code PASS}, {@code FAIL} (a violation), {@code INCONCLUSIVE} (a budget or step bound), or {@code ERROR} (an unreported access, or an internal limit). */
        public final String verdict;
        /** The check's summary line, or the error. */
        public final String line;
        /** Executions audited. */
        public final long executions;
        /** Field and element accesses checked. */
        public final long accesses;
        /** Whether the search behind a PASS was complete within its bound. */
        public final boolean complete;

        Result(Object[] raw) {
            this.verdict = (String) raw[0];
            this.line = (String) raw[1];
            this.executions = (Long) raw[2];
            this.accesses = (Long) raw[3];
            this.complete = (Boolean) raw[4];
        }

        @Override
        public String toString() {
            return verdict + " " + line;
        }
    }

    private final AuditClassLoader loader;
    private final Method inside;

    /** An audit over the classes of the calling code's class loader. */
    public FootprintAudit() {
        this(java.util.Set.of());
    }

    /**
     * An audit that also rewrites the classes named in {@code alsoTracked}, which the audit
     * normally leaves out as the runtime's: a deliberately broken audit, for tests.
     */
    public static FootprintAudit trackingForTesting(java.util.Set<String> alsoTracked) {
        return new FootprintAudit(alsoTracked, true);
    }

    /** An audit that ignores {@code @AuditExempt}: a deliberately broken audit, for tests. */
    public static FootprintAudit ignoringExemptionsForTesting() {
        return new FootprintAudit(java.util.Set.of(), false);
    }

    private FootprintAudit(java.util.Set<String> alsoTracked) {
        this(alsoTracked, true);
    }

    private FootprintAudit(java.util.Set<String> alsoTracked, boolean exemptions) {
        loader = new AuditClassLoader(FootprintAudit.class.getClassLoader(), alsoTracked, exemptions);
        try {
            inside = loader.loadClass(FootprintAudit.class.getName()).getMethod("runInside", String.class, int.class,
                    long.class, String[].class, String[].class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("footprint audit: cannot load the audited classes", e);
        }
    }

    /**
     * Checks {@code scenario} (a registered name, or {@code class#method} naming a static
     * method that returns the {@link Scenario}) at {@code preemptions} ({@link ModelCheck#AUTO},
     * {@link ModelCheck#UNBOUNDED} or a bound) with the reduction on, within {@code executions}
     * (0: the default budget), under {@code sets} and {@code bugs}, auditing every step.
     */
    public Result check(String scenario, int preemptions, long executions, List<String> sets, List<String> bugs) {
        try {
            return new Result((Object[]) inside.invoke(null, scenario, preemptions, executions,
                    sets.toArray(new String[0]), bugs.toArray(new String[0])));
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException) {
                throw (RuntimeException) c;
            }
            if (c instanceof Error) {
                throw (Error) c;
            }
            throw new IllegalStateException(c);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        // The loader and its classes go with the last reference to this audit.
    }

    /**
     * Runs inside the audit's class loader (on the rewritten classes): the arguments and the
     * result are JDK types only, which both loaders share. An {@link IllegalArgumentException}
     * (unknown scenario or option) is thrown as such, with its message.
     */
    public static Object[] runInside(String scenario, int preemptions, long executions, String[] sets, String[] bugs) {
        ClassLoader own = FootprintAudit.class.getClassLoader();
        if (own == null || !own.getClass().getName().equals(AuditClassLoader.class.getName())) {
            throw new IllegalStateException("runInside must run in the audit's class loader");
        }
        Scenario<?> s = find(scenario);
        Kconfig config = KconfigTable.build(Arrays.asList(sets), Arrays.asList(bugs));
        FootprintAuditor auditor = new FootprintAuditor();
        FieldAudit.Sink prev = FieldAudit.install(auditor);
        try {
            ModelCheck check = ModelCheck.exhaustive(s).preemptions(preemptions).reduction(true).config(config);
            if (executions > 0) {
                check.executions(executions);
            }
            CheckResult r = check.run();
            String verdict = r.passed() && r.clean() ? "PASS" : r.violation() != null ? "FAIL" : "INCONCLUSIVE";
            return new Object[] {verdict, r.summaryLine(), auditor.executions(), auditor.accesses(), r.complete()};
        } catch (UnreportedAccessException | ExplorationLimitException e) {
            return new Object[] {"ERROR", s.name() + ": " + e.getMessage(), auditor.executions(), auditor.accesses(),
                false};
        } finally {
            FieldAudit.install(prev);
        }
    }

    private static Scenario<?> find(String name) {
        int hash = name.indexOf('#');
        if (hash < 0) {
            return ScenarioRegistry.everything().get(name);
        }
        try {
            Class<?> c = Class.forName(name.substring(0, hash), true, FootprintAudit.class.getClassLoader());
            Method m = c.getDeclaredMethod(name.substring(hash + 1));
            m.setAccessible(true);
            return (Scenario<?>) m.invoke(null);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("footprint audit: no scenario method " + name, e);
        }
    }
}
