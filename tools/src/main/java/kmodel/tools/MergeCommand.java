package kmodel.tools;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import kmodel.explorer.CheckResult;
import kmodel.explorer.SplitExplorer;
import kmodel.explorer.SplitRun;
import kmodel.explorer.search.NondeterminismException;
import kmodel.explorer.search.ReplayMismatchException;
import kmodel.kernel.Kconfig;
import kmodel.verification.KconfigTable;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.world.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code kmodel merge FILE...}: the report of a whole {@code kmodel check} from the
 * {@code --shard I/N --json FILE} files of its shards (or from the {@code --json} file of a whole
 * run), byte for byte the lines a single run prints but the {@code time:} line, which adds up the
 * shards' times. The first counterexample is replayed to draw its diagram.
 *
 * <p>Refuses, with one line naming the file and what is wrong (exit 2): unreadable files, bad
 * JSON, wrong format or version, fields of the wrong type or out of range, counts that do not
 * match what the file holds, shards with different scenarios or settings, a shard given twice or
 * missing, a different N, and a counterexample that does not replay. Nothing is sized by what a
 * file claims: files are read up to {@link #MAX_FILE_CHARS} characters, and every count is
 * checked against the arrays present.
 */
@Command(name = "merge",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = "Print the report of a whole check from the --json files of its shards "
                + "(kmodel check --shard I/N --json FILE), or of a whole run.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every scenario passed (clean and complete)",
            "1:a violation was found",
            "2:bad usage, or files that do not fit together",
            "3:kmodel itself failed",
            "4:no violation, but some scenario hit the step bound or the execution budget"
        })
final class MergeCommand implements Callable<Integer> {
    /** Largest file read. */
    static final long MAX_FILE_CHARS = 256L << 20;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "The shards' --json files, in any order.")
    List<Path> files = new ArrayList<>();

    @Option(names = {"-v", "--verbose"},
            description = "Draw every scheduling point in a counterexample, not only model events.")
    boolean verbose;

    /** Turns a file's text into its shards ({@link CheckJson#read}; tests swap in broken decoders). */
    interface Decoder {
        CheckJson.ShardFile read(String text) throws CheckJson.Bad;
    }

    Decoder decoder = CheckJson::read;

    @Override
    public Integer call() {
        CommandLine cmd = spec.commandLine();
        List<CheckJson.ShardFile> read = new ArrayList<>();
        for (Path f : files) {
            read.add(readFile(cmd, f));
        }
        CheckJson.ShardFile first = read.get(0);
        for (int i = 1; i < read.size(); i++) {
            CheckJson.ShardFile s = read.get(i);
            if (s.scenarios.size() != first.scenarios.size()) {
                throw bad(cmd, files.get(i), "it holds " + s.scenarios.size() + " scenarios, " + files.get(0) + " "
                        + first.scenarios.size());
            }
            for (int k = 0; k < s.scenarios.size(); k++) {
                String a = first.scenarios.get(k).run.settings().scenario();
                String b = s.scenarios.get(k).run.settings().scenario();
                if (!a.equals(b)) {
                    throw bad(cmd, files.get(i), "scenario " + (k + 1) + " is " + b + ", in " + files.get(0) + " " + a);
                }
            }
        }
        ScenarioRegistry registry = ScenarioRegistry.everything();
        List<java.util.function.Supplier<CheckResult>> results = new ArrayList<>();
        long nanos = 0;
        for (int k = 0; k < first.scenarios.size(); k++) {
            List<SplitRun> shards = new ArrayList<>();
            for (int i = 0; i < read.size(); i++) {
                CheckJson.ScenarioPart p = read.get(i).scenarios.get(k);
                if (!p.split || !p.strategy.equals("exhaustive")) {
                    throw bad(cmd, files.get(i), "scenario " + p.run.settings().scenario() + " is a " + p.strategy
                            + " run, not a split exhaustive search: nothing to merge");
                }
                shards.add(p.run);
                nanos += p.run.nanos();
            }
            String name = shards.get(0).settings().scenario();
            Scenario<?> scenario = registry.find(name);
            if (scenario == null) {
                throw bad(cmd, files.get(0), "unknown scenario '" + name + "' (see: kmodel scenarios)");
            }
            Kconfig config;
            try {
                config = KconfigTable.parseCanonical(shards.get(0).settings().config());
            } catch (IllegalArgumentException e) {
                throw bad(cmd, files.get(0), "scenario " + name + ": configuration: " + e.getMessage());
            }
            try {
                CheckResult merged = SplitExplorer.merge(shards, scenario, config, verbose);
                results.add(() -> merged);
            } catch (SplitExplorer.InconsistentShards e) {
                Path at = e.shard() >= 0 ? fileOf(read, e.shard(), files) : null;
                throw new Kmodel.OneLine(cmd, "merge: " + (at != null ? at + ": " : "") + "scenario " + name + ": "
                        + e.getMessage());
            } catch (ReplayMismatchException | NondeterminismException e) {
                throw new Kmodel.OneLine(cmd, "merge: scenario " + name
                        + ": the first counterexample or step-bound stop does not replay (the files do not come from this model): "
                        + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new Kmodel.OneLine(cmd, "merge: scenario " + name + ": " + e.getMessage());
            }
        }
        PrintWriter out = cmd.getOut();
        return CheckCommand.report(out, results, new ArrayList<>(), 0, nanos);
    }

    private static Path fileOf(List<CheckJson.ShardFile> read, int shard, List<Path> files) {
        for (int i = 0; i < read.size(); i++) {
            if (read.get(i).shardIndex == shard) {
                return files.get(i);
            }
        }
        return null;
    }

    private static Kmodel.OneLine bad(CommandLine cmd, Path file, String what) {
        return new Kmodel.OneLine(cmd, "merge: " + file + ": " + what);
    }

    private CheckJson.ShardFile readFile(CommandLine cmd, Path f) {
        String text;
        try (Reader r = new InputStreamReader(Files.newInputStream(f), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT))) {
            text = CheckJson.readAll(r, MAX_FILE_CHARS);
        } catch (CharacterCodingException e) {
            throw bad(cmd, f, "not UTF-8 text");
        } catch (IOException e) {
            throw bad(cmd, f, "cannot read: " + e.getMessage());
        } catch (CheckJson.Bad e) {
            throw bad(cmd, f, e.getMessage());
        }
        try {
            return decoder.read(text);
        } catch (CheckJson.Bad e) {
            throw bad(cmd, f, e.getMessage());
        }
    }
}
