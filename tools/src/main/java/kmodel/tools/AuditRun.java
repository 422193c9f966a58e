package kmodel.tools;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import kmodel.verification.FootprintAudit;
import kmodel.verification.world.Scenario;

/**
 * {@code kmodel check --audit-footprints}: each selected scenario's reduced exhaustive search run
 * under the footprint audit ({@link FootprintAudit}), one after another on one job. A scenario
 * whose model touches a field or array element that its steps' footprints leave unordered is an
 * {@code ERROR} line naming the field, the two tasks and the two source lines (exit 1); the
 * summary gives the executions audited and the time per execution.
 */
final class AuditRun {
    private AuditRun() {
    }

    static int run(PrintWriter out, List<Scenario<?>> selected, int preemptions, Long executions, List<String> sets,
            List<String> bugs) {
        long start = System.nanoTime();
        long total = 0;
        long accesses = 0;
        int errors = 0;
        int failed = 0;
        int inconclusive = 0;
        FootprintAudit audit = new FootprintAudit();
        for (Scenario<?> s : selected) {
            FootprintAudit.Result r = audit.check(s.name(), preemptions, executions != null ? executions : 0, sets, bugs);
            total += r.executions;
            accesses += r.accesses;
            if (r.verdict.equals("ERROR")) {
                errors++;
                out.println("ERROR " + r.line);
            } else {
                out.println(r.line);
                failed += r.verdict.equals("FAIL") ? 1 : 0;
                inconclusive += r.verdict.equals("INCONCLUSIVE") ? 1 : 0;
            }
            out.flush();
        }
        long nanos = System.nanoTime() - start;
        out.printf(Locale.ROOT, "footprint audit: %d scenario%s: %d with unreported accesses, %d failed, %d inconclusive; "
                + "%,d executions, %,d field and element accesses checked, %.1f s (%.1f us/execution)%n",
                selected.size(), selected.size() == 1 ? "" : "s", errors, failed, inconclusive, total, accesses,
                nanos / 1e9, total == 0 ? 0.0 : nanos / 1e3 / total);
        out.flush();
        if (errors + failed > 0) {
            return Kmodel.EXIT_VIOLATION;
        }
        return inconclusive > 0 ? Kmodel.EXIT_INCONCLUSIVE : 0;
    }
}
