package kmodel.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import kmodel.explorer.CheckResult;
import kmodel.explorer.ModelCheck;
import kmodel.kernel.Kconfig;
import kmodel.kernel.MemoryModel;
import kmodel.kernel.lkmm.Fence;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.tools.xref.KernelIndex;
import kmodel.verification.KconfigTable;
import kmodel.verification.Profiles;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.world.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel barriers}: barrier ablation (issue 20, acceptance 5). For every barrier site of
 * the model (each {@code Barriers.*} call and each {@code fence(Fence.X, "site")} the primitives
 * and the scheduler make), switch that one barrier off ({@link Fence#ABLATE_PREFIX}, carried by
 * the configuration and so by replay tokens) and check, under {@code --memory-model lkmm}, the
 * scenarios of the standard set that execute the site; report the shortest counterexample found,
 * or why none was: no scenario reaches the site, or none fails within the bound.
 *
 * <p>Two passes, both bounded: reachability (each standard scenario under lkmm, preemption bound
 * 0, at most {@code --reach-executions} executions, recording the sites executed), then per site
 * up to {@code --per-site} reaching scenarios, each at {@code --preemptions} with at most
 * {@code --executions} executions, ablated and not (a scenario that fails without the ablation
 * shows nothing about the site).
 */
@Command(name = "barriers",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        sortOptions = false,
        description = "Barrier ablation under --memory-model lkmm: switch off each barrier site in turn and check the"
                + " scenarios that reach it; print (or --write) the table of docs/BARRIERS.md.")
final class BarriersCommand implements Callable<Integer> {
    /** A barrier call in the model's source: {@code Barriers.smpMb("io_cqring_ev_posted")}. */
    static final Pattern BARRIERS_CALL = Pattern.compile("Barriers\\.(smpMb|smpRmb|smpWmb|smpMbBeforeAtomic|smpMbAfterAtomic"
            + "|smpMbAfterSpinlock|barrier)\\(\"(\\w+)\"\\)");
    /** A fence the primitives or the scheduler make: {@code rt.fence(Fence.MB, "set_current_state")}. */
    static final Pattern FENCE_CALL = Pattern.compile("fence\\((?:kmodel\\.kernel\\.lkmm\\.)?Fence\\.(\\w+), \"(\\w+)\"\\)");
    private static final Map<String, Fence> CALLS = Map.of("smpMb", Fence.MB, "smpRmb", Fence.RMB, "smpWmb", Fence.WMB,
            "smpMbBeforeAtomic", Fence.MB_BEFORE_ATOMIC, "smpMbAfterAtomic", Fence.MB_AFTER_ATOMIC,
            "smpMbAfterSpinlock", Fence.MB_AFTER_SPINLOCK, "barrier", Fence.BARRIER);

    /**
     * Why the model cannot show a site necessary, where that is known from the model's structure
     * rather than from a search (printed with "not shown" results only).
     */
    static final Map<String, String> LIMITS = Map.of(
            "smp_mb__after_spinlock@try_to_wake_up", "possible reason, not verified: task state is sequentially"
                    + " consistent even under lkmm, and the modelled wake-ups also pair through the wait queue's spinlock"
                    + " (prepare_to_wait() and __wake_up() take q->lock), which orders what this barrier orders",
            "smp_mb__after_spinlock@__schedule", "possible reason, not verified: it orders the sleeper's accesses"
                    + " against the rq lock and p->state, which the model keeps sequentially consistent even under lkmm",
            "smp_mb@wake_page_function", "in the code of bug page-wait-list-del-not-careful only (2a9127fcf229's"
                    + " smp_mb(); list_del_init()); no scenario runs it unless that bug is switched in");

    @Spec
    CommandSpec spec;

    @Option(names = "--preemptions", paramLabel = "N", defaultValue = "1",
            description = "Preemption bound of each ablation check (default: ${DEFAULT-VALUE}).")
    int preemptions;

    @Option(names = "--executions", paramLabel = "N", defaultValue = "2000",
            description = "At most N executions per ablation check (default: ${DEFAULT-VALUE}).")
    long executions;

    @Option(names = "--reach-executions", paramLabel = "N", defaultValue = "300",
            description = "At most N executions per scenario in the reachability pass, at preemption bound 0 (default: ${DEFAULT-VALUE}).")
    long reachExecutions;

    @Option(names = "--per-site", paramLabel = "N", defaultValue = "40",
            description = "Check at most N reaching scenarios per site, smallest first (default: ${DEFAULT-VALUE}).")
    int perSite;

    @Option(names = "--site", paramLabel = "SITE",
            description = "Only this site, e.g. smp_mb@io_cqring_ev_posted (repeatable; default: every site).")
    List<String> only = new ArrayList<>();

    @Option(names = "--scenario", paramLabel = "SCENARIO",
            description = "Only these scenarios of the standard set (repeatable; default: all of them).")
    List<String> scenarios = new ArrayList<>();

    @Option(names = "--write", paramLabel = "FILE", description = "Write the report as Markdown to FILE (e.g. docs/BARRIERS.md).")
    String write;

    /** One barrier site: its key, the model's source file and line, and the kernel function it sits in. */
    static final class Site {
        final String key;
        final String source;
        final String mirrors;

        Site(String key, String source, String mirrors) {
            this.key = key;
            this.source = source;
            this.mirrors = mirrors;
        }
    }

    /**
     * The barrier sites in the model's sources under {@code root}, by key (first occurrence): each
     * with its file:line and the first Javadoc line of the method it sits in (which names the
     * kernel file, function and version the method mirrors).
     */
    static Map<String, Site> sites(Path root) {
        Map<String, Site> sites = new TreeMap<>();
        List<Path> files = new ArrayList<>();
        // Each model module's src/main/java only (not .git, target/ or the tools): a walk of the whole
        // tree allocated tens of MB per run, on the command's own thread.
        try (Stream<Path> modules = Files.list(root)) {
            for (Path m : modules.filter(d -> Files.isDirectory(d.resolve("src/main/java"))
                    && !d.getFileName().toString().equals("tools")).sorted().toList()) {
                try (Stream<Path> s = Files.walk(m.resolve("src/main/java"))) {
                    s.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().equals("Barriers.java"))
                            .sorted().forEach(files::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path f : files) {
            String text;
            try {
                text = Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // Most files make no barrier call: skip them without splitting them into lines (on JDK 17,
            // splitting every file allocated over 30 MB on the command's own thread).
            if (!text.contains("Barriers.") && !text.contains("Fence.")) {
                continue;
            }
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.indexOf("Barriers.") < 0 && line.indexOf("fence(") < 0) {
                    continue;
                }
                if (line.trim().startsWith("*") || line.trim().startsWith("//")) {
                    continue;
                }
                Matcher m = BARRIERS_CALL.matcher(line);
                Fence fence = null;
                String site = null;
                if (m.find()) {
                    fence = CALLS.get(m.group(1));
                    site = m.group(2);
                } else {
                    Matcher n = FENCE_CALL.matcher(line);
                    if (n.find()) {
                        fence = Fence.valueOf(n.group(1));
                        site = n.group(2);
                    }
                }
                if (fence != null) {
                    String key = fence.siteKey(site);
                    String doc = javadocFirstLine(lines, i);
                    if (!doc.contains(site)) {
                        // The call is not in a method that mirrors its kernel function (the runtime's wake-up).
                        doc = "`" + site + "()`: the model's runtime, not a method mirroring it (see the model source)";
                    }
                    sites.putIfAbsent(key, new Site(key, root.relativize(f) + ":" + (i + 1), doc));
                }
            }
        }
        return sites;
    }

    /** The first line of the Javadoc above the method around line {@code at}, or "" if none. */
    private static String javadocFirstLine(List<String> lines, int at) {
        for (int i = at; i >= 0; i--) {
            String t = lines.get(i).trim();
            if (t.startsWith("/**")) {
                String first = t.substring(3).trim();
                if (first.isEmpty() && i + 1 < lines.size()) {
                    first = lines.get(i + 1).trim().replaceFirst("^\\*\\s*", "");
                }
                return first.replace("*/", "").trim().replace("{@code ", "`").replaceAll("}", "`").replace("|", "\\|");
            }
        }
        return "";
    }

    /** The outcome of one site's ablation. */
    static final class Verdict {
        final Site site;
        final List<String> reachedBy;
        CheckResult shortest;
        final List<String> notes = new ArrayList<>();

        Verdict(Site site, List<String> reachedBy) {
            this.site = site;
            this.reachedBy = reachedBy;
        }
    }

    @Override
    public Integer call() {
        CommandLine cmd = spec.commandLine();
        if (preemptions < 0 || executions < 1 || reachExecutions < 1 || perSite < 1) {
            throw new Kmodel.OneLine(cmd, "--preemptions must be >= 0, --executions, --reach-executions and --per-site >= 1");
        }
        Path out = null;
        if (write != null) {
            try {
                out = Path.of(write);
            } catch (InvalidPathException e) {
                throw new Kmodel.OneLine(cmd, "--write: not a path: '" + write + "'");
            }
            if (Files.isDirectory(out) || out.toString().isEmpty()) {
                throw new Kmodel.OneLine(cmd, "--write: not a file: '" + write + "'");
            }
            if (out.getParent() != null && !Files.isDirectory(out.getParent())) {
                throw new Kmodel.OneLine(cmd, "--write: no such directory: " + out.getParent());
            }
        }
        Map<String, Site> sites = sites(KernelIndex.repositoryRoot(BarriersCommand.class));
        for (String k : only) {
            if (!sites.containsKey(k)) {
                throw new Kmodel.OneLine(cmd, "--site: no barrier site '" + k + "' (known: " + String.join(", ", sites.keySet()) + ")");
            }
        }
        ScenarioRegistry registry = ScenarioRegistry.standard();
        List<Scenario<?>> selected = new ArrayList<>();
        try {
            if (scenarios.isEmpty()) {
                selected.addAll(registry.all());
            } else {
                for (String name : scenarios) {
                    selected.add(registry.get(name));
                }
            }
        } catch (IllegalArgumentException e) {
            throw new Kmodel.OneLine(cmd, e.getMessage());
        }
        if (System.getProperty("jdk.virtualThreadScheduler.parallelism") == null) {
            System.setProperty("jdk.virtualThreadScheduler.parallelism", "1");
        }
        PrintWriter pw = cmd.getOut();
        long start = System.nanoTime();
        Kconfig lkmm = KconfigTable.build(Profiles.DEFAULT, List.of(), List.of()).withMemoryModel(MemoryModel.LKMM);

        // Pass 1: which scenario reaches which site (lkmm, bound 0, capped).
        Map<String, List<String>> reaching = new TreeMap<>();
        Map<String, Long> size = new LinkedHashMap<>();
        long reachRuns = 0;
        for (Scenario<?> s : selected) {
            DeterministicRuntime.FENCE_SITES_REACHED.clear();
            CheckResult r = ModelCheck.exhaustive(s).config(lkmm).preemptions(0).executions(reachExecutions).run();
            reachRuns += r.executions();
            size.put(s.name(), r.executions());
            for (String k : DeterministicRuntime.FENCE_SITES_REACHED) {
                reaching.computeIfAbsent(k, x -> new ArrayList<>()).add(s.name());
            }
        }
        pw.printf(Locale.ROOT, "reachability: %d scenarios, %d executions (lkmm, preemption bound 0, at most %d each)%n",
                selected.size(), reachRuns, reachExecutions);

        // Pass 2: per site, ablate and check the reaching scenarios, smallest first.
        Map<String, CheckResult> baseline = new LinkedHashMap<>();
        List<Verdict> verdicts = new ArrayList<>();
        long ablationRuns = 0;
        for (Site site : sites.values()) {
            if (!only.isEmpty() && !only.contains(site.key)) {
                continue;
            }
            List<String> by = new ArrayList<>(reaching.getOrDefault(site.key, List.of()));
            by.sort(Comparator.comparingLong((String n) -> size.get(n)).thenComparing(n -> n));
            Verdict v = new Verdict(site, by);
            int tried = 0;
            for (String name : by) {
                if (tried == perSite) {
                    v.notes.add((by.size() - by.indexOf(name)) + " more not checked (--per-site)");
                    break;
                }
                Scenario<?> s = registry.get(name);
                CheckResult base = baseline.computeIfAbsent(name,
                        n -> ModelCheck.exhaustive(s).config(lkmm).preemptions(preemptions).executions(executions).run());
                if (base.violation() != null || base.oops() != null) {
                    v.notes.add(name + " fails without the ablation" + (base.kind() != null ? " (" + base.kind().label() + ")" : "")
                            + ": not used");
                    continue;
                }
                tried++;
                CheckResult r = ModelCheck.exhaustive(s).config(lkmm.withBug(Fence.ABLATE_PREFIX + site.key))
                        .preemptions(preemptions).executions(executions).run();
                ablationRuns += r.executions();
                if (r.violation() != null && r.kind() != null) {
                    if (v.shortest == null || r.trace().size() < v.shortest.trace().size()) {
                        v.shortest = r;
                    }
                } else {
                    v.notes.add(name + ": passes ablated (" + r.executions() + " executions"
                            + (r.complete() ? ", complete within the bound" : ", capped") + ")");
                }
            }
            verdicts.add(v);
            pw.println(line(v));
            pw.flush();
        }
        double secs = (System.nanoTime() - start) / 1e9;
        pw.printf(Locale.ROOT, "%d sites, %d ablation executions; time: %.0f s%n", verdicts.size(), ablationRuns, secs);
        pw.flush();
        if (out != null) {
            try {
                Files.writeString(out, markdown(verdicts, selected.size()), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new Kmodel.OneLine(cmd, "--write: cannot write " + out + ": " + e.getMessage());
            }
        }
        return 0;
    }

    private String line(Verdict v) {
        if (v.shortest != null) {
            CheckResult r = v.shortest;
            return v.site.key + ": necessary: " + r.scenario() + " " + r.kind().label() + " after " + r.executions()
                    + " executions, replay: ./kmodel replay " + r.token();
        }
        String limit = LIMITS.containsKey(v.site.key) ? " [" + LIMITS.get(v.site.key) + "]" : "";
        if (v.reachedBy.isEmpty()) {
            return v.site.key + ": not shown: no scenario reaches it" + limit;
        }
        return v.site.key + ": not shown: " + String.join("; ", v.notes) + limit;
    }

    /** The report as Markdown: the table of docs/BARRIERS.md. */
    String markdown(List<Verdict> verdicts, int scenarioCount) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Barrier ablation\n\n");
        sb.append("Generated by `./kmodel barriers --write docs/BARRIERS.md` (do not edit by hand; `BarriersDocTest` checks that every\n");
        sb.append("barrier site in the code has a row). Each barrier site of the model is switched off in turn\n");
        sb.append("(configuration entry `bug=" + Fence.ABLATE_PREFIX + "KEY`, so replay tokens carry it) and the standard scenarios\n");
        sb.append("that execute it are checked under `--memory-model lkmm`. The key is the barrier and the kernel function it\n");
        sb.append("sits in; \"model source\" is the call in the model, \"mirrors\" the first Javadoc line of the method around it\n");
        sb.append("(the kernel file, function and version that method mirrors; kernel line numbers are not given). The\n");
        sb.append("full-tier `BarriersDocFullTest` regenerates this file and compares.\n\n");
        sb.append("Bounds: reachability: each of the " + scenarioCount + " standard scenarios under lkmm at preemption bound 0, at most "
                + reachExecutions + " executions; ablation: up to " + perSite + " reaching scenarios per site (smallest first), each at\n"
                + "preemption bound " + preemptions + " with at most " + executions + " executions, and only scenarios that pass\n"
                + "under lkmm without the ablation at the same bound. \"Not shown\" is therefore within these bounds and\n"
                + "the lkmm approximation of docs/memory-model.md, not a proof that the barrier is unneeded.\n\n");
        sb.append("| barrier site | model source | mirrors | result |\n|---|---|---|---|\n");
        for (Verdict v : verdicts) {
            sb.append("| `").append(v.site.key).append("` | ").append(v.site.source).append(" | ").append(v.site.mirrors).append(" | ");
            if (v.shortest != null) {
                CheckResult r = v.shortest;
                sb.append("**necessary**: `").append(r.scenario()).append("` ").append(r.kind().label()).append(" after ")
                        .append(r.executions()).append(" executions; `./kmodel replay ").append(r.token()).append('`');
            } else {
                if (v.reachedBy.isEmpty()) {
                    sb.append("not shown: no standard scenario reaches it");
                } else {
                    sb.append("not shown: reached by ").append(v.reachedBy.size()).append(" scenarios; ")
                            .append(String.join("; ", v.notes));
                }
                if (LIMITS.containsKey(v.site.key)) {
                    sb.append(". ").append(LIMITS.get(v.site.key));
                }
            }
            sb.append(" |\n");
        }
        return sb.toString();
    }
}
