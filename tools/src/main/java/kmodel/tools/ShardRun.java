package kmodel.tools;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import kmodel.explorer.CheckPool;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.explorer.SplitRun;
import kmodel.kernel.Kconfig;
import kmodel.verification.world.Scenario;

/**
 * How {@code kmodel check} runs its scenarios on a {@link CheckPool}: every scenario's check
 * started at once (each exhaustive search split into units that share the pool's jobs), results
 * taken in scenario order; one shard of each search for {@code --shard I/N}; the {@code --json}
 * file ({@link CheckJson}).
 */
final class ShardRun {
    private ShardRun() {
    }

    /** A daemon thread per scenario to drive its check (it only waits on the pool's jobs). */
    private static ExecutorService coordinators() {
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "kmodel-check");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts every scenario's check on {@code pool}; the futures are in scenario order. */
    static List<CompletableFuture<CheckResult>> startAll(CheckCommand cmd, List<Scenario<?>> selected, Kconfig config,
            CheckPool pool) {
        ExecutorService ex = coordinators();
        List<CompletableFuture<CheckResult>> out = new ArrayList<>();
        for (Scenario<?> s : selected) {
            ModelCheck check = cmd.newCheck(s).config(config).pool(pool);
            out.add(CompletableFuture.supplyAsync(check::run, ex));
        }
        ex.shutdown();
        return out;
    }

    /** {@code --shard I/N}: one shard of each scenario's search, written to {@code json}; one line per scenario. */
    static int shard(CheckCommand cmd, PrintWriter out, List<Scenario<?>> selected, Kconfig config, CheckPool pool,
            int index, int count, Path json) {
        long start = System.nanoTime();
        ExecutorService ex = coordinators();
        List<CompletableFuture<SplitRun>> running = new ArrayList<>();
        for (Scenario<?> s : selected) {
            ModelCheck check = cmd.newCheck(s).config(config).pool(pool);
            running.add(CompletableFuture.supplyAsync(() -> check.runShard(index, count), ex));
        }
        ex.shutdown();
        List<JsonObject> parts = new ArrayList<>();
        long total = 0;
        for (CompletableFuture<SplitRun> f : running) {
            SplitRun run = CheckPool.join(f);
            long executions = 0;
            int units = 0;
            int owned = 0;
            boolean violation = false;
            for (SplitRun.Level l : run.levels().values()) {
                units += l.unitCount();
                for (int u = 0; u < l.unitCount(); u++) {
                    if (l.unit(u) != null) {
                        owned++;
                        executions += l.unit(u).executions();
                        violation |= l.unit(u).violationAt() >= 0;
                    }
                }
            }
            total += executions;
            out.println(String.format(Locale.ROOT, "SHARD %d/%d %s  %d executions in %d of %d units, %d level%s%s",
                    index, count, run.settings().scenario(), executions, owned, units, run.levels().size(),
                    run.levels().size() == 1 ? "" : "s", violation ? ", a violation (kmodel merge shows the first)" : ""));
            out.flush();
            parts.add(CheckJson.scenario(run.settings(), cmd.strategyName(), null, run, run.nanos()));
        }
        long wall = System.nanoTime() - start;
        write(json, CheckJson.file(index, count, pool.jobs(), wall, parts));
        out.println(String.format(Locale.ROOT, "shard %d/%d of %d scenario%s: %d executions, written to %s", index, count,
                selected.size(), selected.size() == 1 ? "" : "s", total, json));
        out.println(String.format(Locale.ROOT, "time: %.2f s", wall / 1e9));
        out.flush();
        return 0;
    }

    /** {@code --json FILE} of a whole run. */
    static void writeJson(CheckCommand cmd, List<CheckResult> results, int jobs, long nanos, Path json) {
        List<JsonObject> parts = new ArrayList<>();
        for (CheckResult r : results) {
            SplitRun run = r.split();
            SplitRun.Settings st = run != null ? run.settings()
                    : new SplitRun.Settings(r.scenario(), r.config().canonical(), cmd.preemptions,
                            cmd.reduction != CheckCommand.Reduction.NONE, true, cmd.steps,
                            cmd.executions != null ? cmd.executions : ModelCheck.DEFAULT_SAMPLED, 1,
                            CheckJson.autoBound(r.scenario(), cmd.preemptions))
                            .sourceSets(cmd.reduction == CheckCommand.Reduction.SOURCE);
            // a portfolio decided by its unbounded phase is an exhaustive search's result, and merges as one
            String strategy = cmd.kind() == ModelCheck.Kind.AUTO && kmodel.explorer.Portfolio.decidedByTheUnboundedPhase(r)
                    ? "exhaustive" : cmd.strategyName();
            parts.add(CheckJson.scenario(st, strategy, r, run, r.nanos()));
        }
        write(json, CheckJson.file(0, 1, jobs, nanos, parts));
    }

    private static void write(Path json, String text) {
        try {
            Files.writeString(json, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + json + ": " + e.getMessage());
        }
    }
}
