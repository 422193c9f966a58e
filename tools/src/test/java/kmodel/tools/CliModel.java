package kmodel.tools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.Tuple;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command line's input surfaces, generated from picocli's own model of it
 * ({@link CommandLine#getCommandSpec()}): every command, every option and every positional
 * parameter, each with a generator of values chosen by its type (numbers for {@code int} and
 * {@code long}, paths for {@code Path}, durations for {@code Duration}, flags for a boolean) and
 * its label ({@code a|b|c} alternatives, {@code NAME} a scenario, {@code ID} a bug, {@code PROFILE} a kernel profile,
 * {@code NAME=VALUE} a Kconfig assignment, {@code TOKEN} a replay token, {@code FILE} and
 * {@code DIR} a path, ...), around valid values with one-edit mutations and hostile text. An
 * option added to a command is fuzzed by {@link CliFuzzProperties} without being named anywhere.
 *
 * <p>What is written by hand is only what keeps a fuzzed run cheap and free of side effects
 * ({@link #context}): per command, the options that bound a valid run (a small scenario, a few
 * executions, one swarm recipe, no JMH), the arguments a valid run needs, and fakes for the
 * simulator ({@code fio}, {@code xfs_io}) and for {@code reproduce}'s simulations. A command
 * with no such entry is refused by {@link #context} (and by
 * {@code CliFuzzProperties.everyCommandHasARunBudget}) rather than run unbounded. Paths are
 * always inside a scratch directory.
 */
final class CliModel {
    private CliModel() {
    }

    /** One input of the command line: an option or a positional parameter of a command. */
    static final class Input {
        /** The command's name, e.g. {@code check} ({@code kmodel} for the top level). */
        final String command;
        /** {@code --jobs}, or the positional parameter's label ({@code TOKEN}). */
        final String name;
        final ArgSpec arg;

        Input(String command, String name, ArgSpec arg) {
            this.command = command;
            this.name = name;
            this.arg = arg;
        }

        boolean isOption() {
            return arg.isOption();
        }

        /** Takes no value (a flag). */
        boolean isFlag() {
            return arg.isOption() && arg.arity().max() == 0;
        }

        Class<?> type() {
            Class<?>[] aux = arg.auxiliaryTypes();
            return aux != null && aux.length > 0 && (arg.isMultiValue()) ? aux[0] : arg.type();
        }

        @Override
        public String toString() {
            return (command.equals("kmodel") ? "kmodel " : "kmodel " + command + " ") + name + " (" + type().getSimpleName()
                    + (arg.paramLabel().isEmpty() || isFlag() ? "" : " " + arg.paramLabel()) + ")";
        }
    }

    /** Every option and positional parameter of {@code root} and its subcommands, in the model's order. */
    static List<Input> inputs(CommandLine root) {
        List<Input> out = new ArrayList<>();
        add(out, "kmodel", root.getCommandSpec());
        for (CommandLine sub : root.getSubcommands().values()) {
            add(out, sub.getCommandName(), sub.getCommandSpec());
        }
        return out;
    }

    private static void add(List<Input> out, String command, CommandSpec spec) {
        for (OptionSpec o : spec.options()) {
            out.add(new Input(command, o.longestName(), o));
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            out.add(new Input(command, p.paramLabel(), p));
        }
    }

    /** Every command name, option name (negated forms included) of {@code root}: the words of whole argument vectors. */
    static List<String> words(CommandLine root) {
        Set<String> w = new LinkedHashSet<>();
        for (Input in : inputs(root)) {
            if (in.isOption()) {
                OptionSpec o = (OptionSpec) in.arg;
                w.addAll(List.of(o.names()));
                if (o.negatable()) {
                    for (String n : o.names()) {
                        if (n.startsWith("--")) {
                            w.add("--no-" + n.substring(2));
                        }
                    }
                }
            }
        }
        w.addAll(root.getSubcommands().keySet());
        return new ArrayList<>(w);
    }

    // ---- values, by type and label -------------------------------------------------------

    private static Path scratch;

    /** A scratch directory for every file a fuzzed run reads or writes, with a shard file pair and a job file in it. */
    static synchronized Path scratch() {
        if (scratch == null) {
            try {
                scratch = Files.createTempDirectory("kmodel-cli-fuzz");
                scratch.toFile().deleteOnExit();
                Files.write(scratch.resolve("job.fio"), FioFuzzProperties.BASES.get(2).getBytes(StandardCharsets.UTF_8));
                // fio-input.fio: the job file a valid fio run reads, under a name no fuzzed value writes (a fuzzed
                // --json or --write FILE may overwrite job.fio, which then fails every later fio case's input checks)
                Files.write(scratch.resolve("fio-input.fio"), FioFuzzProperties.BASES.get(2).getBytes(StandardCharsets.UTF_8));
                Files.copy(Path.of(LitmusCliTest.suite("SB+mbs.litmus").toString()), scratch.resolve("sb.litmus"));
                // merge-I.json: the shards a valid merge reads, under names no fuzzed value writes
                for (int i = 0; i < 2; i++) {
                    CliRun r = CliRun.kmodel("check", "--scenario", "textbook-waitqueue", "--bug",
                            "textbook-check-then-sleep", "--preemptions", "1", "--shard", i + "/2", "--json",
                            scratch.resolve("merge-" + i + ".json").toString(), "--jobs", "1");
                    if (r.code != 0) {
                        throw new IllegalStateException(r.toString());
                    }
                    Files.copy(scratch.resolve("merge-" + i + ".json"), scratch.resolve("shard-" + i + ".json"));
                }
                CliRun whole = CliRun.kmodel("check", "--scenario", "textbook-waitqueue", "--bug",
                        "textbook-check-then-sleep", "--preemptions", "1", "--json",
                        scratch.resolve("whole-input.json").toString(), "--jobs", "1");
                if (whole.code != 1) {
                    throw new IllegalStateException(whole.toString());
                }
                Files.copy(scratch.resolve("whole-input.json"), scratch.resolve("whole.json"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return scratch;
    }

    /**
     * Puts the scratch directory's input files back as {@link #scratch()} wrote them: a fuzzed
     * output option ({@code --json job.fio}, {@code --write shard-0.json}) may have overwritten one,
     * and every later case that reads it would then fail its input checks, whatever it fuzzes.
     */
    static synchronized void restoreInputs() {
        Path d = scratch();
        try {
            Files.write(d.resolve("job.fio"), FioFuzzProperties.BASES.get(2).getBytes(StandardCharsets.UTF_8));
            Files.write(d.resolve("fio-input.fio"), FioFuzzProperties.BASES.get(2).getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 2; i++) {
                Files.copy(d.resolve("merge-" + i + ".json"), d.resolve("shard-" + i + ".json"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Files.copy(d.resolve("whole-input.json"), d.resolve("whole.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Valid file names in the scratch directory, and names that are not there. */
    static final List<String> FILE_NAMES = List.of("shard-0.json", "shard-1.json", "job.fio", "out.json", "report",
            "absent/x.json", "");

    /** A path inside the scratch directory: {@code name} with no way out of it (no separator, no {@code ..}). */
    static String inScratch(String name) {
        String n = name.replace('/', '_').replace('\\', '_');
        if (n.equals(".") || n.equals("..")) {
            n = "_" + n;
        }
        return scratch() + "/" + n;
    }

    static final List<String> DURATIONS = List.of("30s", "5m", "1h30m", "500ms", "1d", "366d", "367d", "0s", "1h 30m");
    static final List<String> XREF_NAMES = List.of("wake_page_function", "wake_page_function()", "PG_locked",
            "IOCB_WAITQ", "struct page", "nope");

    /** Values of {@code in}: from its type, then its label; valid ones, one-edit mutations and hostile text. */
    static Arbitrary<String> values(Input in) {
        Class<?> t = in.type();
        if (t == int.class || t == Integer.class || t == long.class || t == Long.class) {
            return CliSurfaces.numbers();
        }
        if (t == Path.class || t == java.io.File.class) {
            return CliSurfaces.valuesAround(FILE_NAMES).map(CliModel::inScratch);
        }
        if (t == Duration.class) {
            return CliSurfaces.valuesAround(DURATIONS);
        }
        List<String> valid = validValues(in);
        if (isPath(in)) {
            return CliSurfaces.valuesAround(valid).map(CliModel::inScratch);
        }
        return valid.isEmpty() ? CliSurfaces.hostile() : CliSurfaces.valuesAround(valid);
    }

    /** Whether {@code in} names a file or directory (by its label): its values stay in the scratch directory. */
    static boolean isPath(Input in) {
        String l = in.arg.paramLabel();
        if (in.command.equals("xfs_io") && l.equals("FILE")) {
            return false; // the model's file, not one on disk
        }
        return l.equals("FILE") || l.equals("DIR") || l.equals("JOBFILE") || in.type() == Path.class;
    }

    /**
     * Inputs whose valid runs are not made, only their refusals: {@code bench --jmh} would fork
     * JMH for seconds (the context keeps {@code --no-jmh}, so a fuzzed {@code --jmh} is given
     * twice), {@code xref --kernel DIR} needs a kernel tree, which the scratch directory is not, and
     * {@code reproduce --kernel} is refused whatever its value (a seed's experiment runs its own kernel).
     */
    static final Set<String> ONLY_REFUSED = Set.of("bench --jmh", "xref --kernel", "reproduce --kernel");

    /** The values {@code in} should accept, as its type and label say (empty: none known). */
    static List<String> validValues(Input in) {
        String label = in.arg.paramLabel();
        if (label.equals("JOBFILE")) {
            return List.of("job.fio", "shard-0.json", "absent.fio");
        }
        if (label.equals("DIR")) {
            return List.of("report", "absent/dir", "shard-0.json");
        }
        if (in.command.equals("xfs_io") && label.equals("FILE")) {
            return List.of("foo", "/mnt/btrfs/foo", "");
        }
        if (in.command.equals("litmus") && label.equals("FILE")) {
            return List.of("sb.litmus", "absent.litmus", "job.fio");
        }
        if (in.command.equals("merge") && !in.isOption()) {
            // whole.json: an unsharded run, which merges alone (one shard of two is refused: a unit missing)
            return List.of("whole.json", "shard-0.json", "absent/x.json", "job.fio", "");
        }
        if (isPath(in)) {
            return FILE_NAMES;
        }
        if (in.type() == Duration.class) {
            return DURATIONS.subList(0, 5);
        }
        if (in.type() == int.class || in.type() == Integer.class || in.type() == long.class || in.type() == Long.class) {
            return List.of("1", "2", "3");
        }
        switch (label) {
            case "NAME":
                if (in.command.equals("xref")) {
                    return XREF_NAMES;
                }
                List<String> names = new ArrayList<>(CliSurfaces.scenarioNames());
                for (String r : CliSurfaces.swarmRecipes()) {
                    names.add("swarm:" + r);
                }
                return names;
            case "ID":
                return CliSurfaces.bugIds();
            case "PROFILE":
                return kmodel.verification.Profiles.all().stream().map(p -> p.name()).collect(java.util.stream.Collectors.toList());
            case "NAME=VALUE":
                return CliSurfaces.assignments();
            case "TOKEN":
                return TOKENS.get();
            case "CMD":
                return FioFuzzProperties.COMMANDS;
            case "I/N":
                return List.of("0/2", "1/2", "0/1", "2/3");
            case "COMMAND":
                return new ArrayList<>(Kmodel.commandLine().getSubcommands().keySet());
            default:
                break;
        }
        if (label.contains("|")) {
            List<String> out = new ArrayList<>();
            for (String a : label.split("\\|")) {
                out.add(a.equals("N") ? "3" : a.equals("1/N") ? "1/4" : a);
            }
            return out;
        }
        return List.of();
    }

    private static final Supplier<List<String>> TOKENS = memoize(CliSurfaces::validTokens);

    private static <T> Supplier<T> memoize(Supplier<T> s) {
        return new Supplier<T>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = s.get();
                }
                return value;
            }
        };
    }

    /** The argument words that give {@code in} the value {@code v}: {@code --x v}, {@code --x=v}, or {@code v}. */
    static List<String> give(Input in, String v, boolean attached) {
        if (!in.isOption()) {
            return List.of(v);
        }
        return attached ? List.of(in.name + "=" + v) : List.of(in.name, v);
    }

    /**
     * Fuzz cases of {@code in}: whole argument vectors, the first {@code n} of a fixed-seed
     * generator. A flag is given alone, negated, with {@code =VALUE} or followed by a stray word.
     */
    static List<List<String>> cases(Input in, int n, long seed) {
        Random random = new Random(seed ^ in.toString().hashCode());
        List<List<String>> out = new ArrayList<>();
        if (in.isFlag()) {
            OptionSpec o = (OptionSpec) in.arg;
            // plain Random, no jqwik generator: the flag cases are made outside jqwik's threads too
            List<String> junk = List.of("true", "false", "TRUE", "yes", "0", "", "x", "null", "-", "--", "\u0000", "=");
            out.add(List.of(in.name));
            for (String alias : o.names()) {
                out.add(List.of(alias));
            }
            if (o.negatable() && in.name.startsWith("--")) {
                out.add(List.of("--no-" + in.name.substring(2)));
            }
            while (out.size() < n) {
                String j = junk.get(random.nextInt(junk.size()));
                out.add(random.nextBoolean() ? List.of(in.name + "=" + j) : List.of(in.name, j));
            }
            return out.subList(0, Math.min(out.size(), Math.max(n, o.names().length + 1)));
        }
        RandomGenerator<String> gen = values(in).generator(1000);
        List<String> valid = validValues(in);
        for (int i = 0; i < n; i++) {
            // the first case a valid value (when one is known), so that every input gets past the checks once
            String v = i == 0 && !valid.isEmpty() ? (isPath(in) ? inScratch(valid.get(0)) : valid.get(0))
                    : gen.next(random).value();
            out.add(give(in, v, in.isOption() && random.nextInt(4) == 0));
        }
        return out;
    }

    // ---- what keeps a run cheap ----------------------------------------------------------

    /**
     * The whole argument vector for one case of {@code in}: the command, the options that keep a
     * valid run of it cheap (without the fuzzed option's own), the arguments a valid run needs
     * (but the fuzzed one), then the case's words.
     */
    static List<String> argv(Input in, List<String> caseWords) {
        restoreInputs();
        List<String> argv = new ArrayList<>();
        if (!in.command.equals("kmodel")) {
            argv.add(in.command);
        }
        argv.addAll(context(in.command, in.isOption() ? in.name : null));
        if (!in.isOption() && in.command.equals("xfs_io")) {
            argv.addAll(List.of("-c", "pread 0 4k")); // FILE is fuzzed: the command a valid run needs
        }
        argv.addAll(caseWords);
        if (in.isOption() && !(in.command.equals("xref") && in.name.equals("--index"))) { // --index takes no NAME
            argv.addAll(positionals(in.command));
        }
        return argv;
    }

    /**
     * The options that bound a valid run of {@code command} when {@code fuzzed} (an option, or
     * null for a positional parameter) is the input under test. Written by hand: this is the
     * run budget, not the list of inputs. Throws for a command it does not know.
     */
    static List<String> context(String command, String fuzzed) {
        String f = fuzzed == null ? "" : fuzzed;
        switch (command) {
            case "kmodel":
            case "bugs":
            case "scenarios":
            case "options":
            case "help":
            case "replay":
            case "merge":
            case "fio":
            case "xfs_io":
            case "xref":
            case "reproduce": // its simulations do not run (validateOnly), see factory()
            case "litmus": // litmus tests of a few states; --max-states bounds any other
                return List.of();
            case "check":
                switch (f) {
                    case "--executions": // the search at bound 0 is finite and small
                        return List.of("--scenario", "textbook-refcount", "--preemptions", "0");
                    case "--scenario":
                        return List.of("--executions", "5");
                    case "--shard":
                        return List.of("--scenario", "textbook-refcount", "--executions", "5", "--json",
                                inScratch("shard.json"));
                    case "--depth":
                        return List.of("--scenario", "textbook-refcount", "--executions", "5", "--strategy", "pct");
                    case "--seed":
                        return List.of("--scenario", "textbook-refcount", "--executions", "5", "--strategy", "random");
                    case "--delay-bound":
                        return List.of("--scenario", "textbook-refcount", "--executions", "5", "--strategy", "delay");
                    default:
                        return List.of("--scenario", "textbook-refcount", "--executions", "5");
                }
            case "barriers": { // one small scenario, one site, a few executions: each option but the fuzzed one
                List<String> out = new ArrayList<>();
                String[][] budget = {{"--scenario", "textbook-refcount"}, {"--site", "smp_rmb@refcount_sub_and_test"},
                    {"--executions", "5"}, {"--reach-executions", "5"}, {"--preemptions", "0"}};
                for (String[] o : budget) {
                    if (!o[0].equals(f)) {
                        out.add(o[0]);
                        out.add(o[1]);
                    }
                }
                return out;
            }
            case "swarm":
                switch (f) {
                    case "--count": // and the cap in tooCostly
                        return List.of("--executions", "1", "--preemptions", "0");
                    case "--executions":
                    case "--steps":
                        return List.of("--count", "1", "--preemptions", "0");
                    case "--preemptions":
                        return List.of("--count", "1", "--executions", "5");
                    default:
                        return List.of("--count", "1", "--executions", "5", "--preemptions", "0");
                }
            case "bench": // never JMH (a fork of seconds): --no-jmh stays, a fuzzed --jmh is then given twice
                switch (f) {
                    case "--scenario":
                        return List.of("--no-jmh", "--quick", "--executions", "5", "--bug", "textbook-double-put");
                    case "--bug":
                        return List.of("--no-jmh", "--quick", "--executions", "5", "--scenario", "textbook-refcount");
                    case "--executions": // and the cap in tooCostly
                        return List.of("--no-jmh", "--quick", "--scenario", "textbook-refcount", "--bug",
                                "textbook-double-put");
                    case "--quick":
                        return List.of("--no-jmh", "--executions", "5", "--scenario", "textbook-refcount", "--bug",
                                "textbook-double-put");
                    default:
                        return List.of("--no-jmh", "--quick", "--executions", "5", "--scenario", "textbook-refcount",
                                "--bug", "textbook-double-put");
                }
            default:
                throw new IllegalStateException("no run budget for 'kmodel " + command + "': say in CliModel.context how a "
                        + "valid run of it stays cheap and free of side effects");
        }
    }

    /** The positional arguments a valid run of {@code command} needs (when an option of it is fuzzed). */
    static List<String> positionals(String command) {
        switch (command) {
            case "replay":
                return List.of(TOKENS.get().get(0));
            case "merge":
                return List.of(inScratch("merge-0.json"), inScratch("merge-1.json"));
            case "fio":
                return List.of(inScratch("fio-input.fio"));
            case "xfs_io":
                return List.of("-c", "pread 0 4k", "foo");
            case "xref":
                return List.of("wake_page_function");
            case "litmus":
                return List.of(LitmusCliTest.suite("SB+mbs.litmus").toString());
            default:
                return List.of();
        }
    }

    /**
     * Cases whose valid run would cost too much: a value above the cap of an option that is
     * itself the run's budget (a value the command refuses as out of range is left out too).
     */
    static boolean tooCostly(Input in, List<String> caseWords) {
        long cap;
        String key = in.command + " " + in.name;
        switch (key) {
            case "swarm --count":
            case "bench --executions":
            case "check --jobs":
                cap = key.equals("check --jobs") ? 4 : 20;
                break;
            default:
                return false;
        }
        for (String w : caseWords) {
            String v = w.startsWith(in.name + "=") ? w.substring(in.name.length() + 1) : w;
            // any run of digits: 19 digits (still a long) or more is above every cap, too
            if (v.matches("[0-9]+") && (v.length() > 18 || Long.parseLong(v) > cap)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The commands' factory for fuzzed runs: fio and xfs_io on a fake simulator, reproduce
     * stopping before its first simulation, xref on the index read once.
     */
    static CommandLine.IFactory factory() {
        CommandLine.IFactory fakes = FakeRunner.factory(new FakeRunner());
        return new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == XrefCommand.class) {
                    return XrefCliTest.FACTORY.create(cls); // the index read once, not at every run
                }
                if (cls == ReproduceCommand.class) {
                    ReproduceCommand c = new ReproduceCommand();
                    c.validateOnly = true;
                    return cls.cast(c);
                }
                return fakes.create(cls);
            }
        };
    }

    /** The command line fuzzed runs use. */
    static CommandLine commandLine() {
        return Kmodel.commandLine(factory(), false);
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** Frequencies for a mix of {@code a} and {@code b}. */
    static <T> Arbitrary<T> mix(int wa, Arbitrary<T> a, int wb, Arbitrary<T> b) {
        return Arbitraries.frequencyOf(Tuple.of(wa, a), Tuple.of(wb, b));
    }
}
