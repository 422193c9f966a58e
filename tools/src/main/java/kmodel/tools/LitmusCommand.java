package kmodel.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import kmodel.tools.litmus.Litmus;
import kmodel.tools.litmus.LitmusException;
import kmodel.tools.litmus.LitmusParser;
import kmodel.tools.litmus.LitmusRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kmodel litmus FILE...}: runs C litmus tests (the LKMM's format) under kmodel's
 * operational approximation of the LKMM and prints herd7's verdict shape plus a witness.
 *
 * <p>Every file is read and parsed before any test runs. Exit: 0 every test ran and none
 * disagreed with its {@code Result:} comment; 1 some test disagreed (marked {@code (DISAGREES)}
 * on stdout); 2 a file could not be read, is malformed or uses a construct not supported: one line
 * on stderr, {@code kmodel: FILE:LINE: ...}, and nothing else; 4 no disagreement, but a test
 * exceeded the state budget ({@code --max-states}).
 */
@Command(name = "litmus",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = {
            "Run C litmus tests (tools/memory-model format) under kmodel's operational approximation of the LKMM.",
            "Prints herd7's verdict shape (States, Positive/Negative, Observation Never|Sometimes|Always) and a witness;"
                + " compares with the file's 'Result:' comment. Load buffering is not explored (see docs/memory-model.md)."
        })
final class LitmusCommand implements Callable<Integer> {
    /** The largest litmus file read. */
    static final int MAX_BYTES = 1 << 20;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "litmus files")
    List<String> files;

    @Option(names = "--max-states", paramLabel = "N", defaultValue = "200000",
            description = "give up on a test after N states (1..10000000; default ${DEFAULT-VALUE})")
    long maxStates;

    @Option(names = "--no-witness", description = "do not print the witness diagram")
    boolean noWitness;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (maxStates < 1 || maxStates > 10_000_000) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--max-states must be 1..10000000, not " + maxStates);
        }
        // Every file is read and parsed before any runs: a refused input is one line and nothing else.
        List<Litmus> tests = new java.util.ArrayList<>();
        for (String f : files) {
            String name = Kmodel.oneLine(f);
            try {
                tests.add(LitmusParser.parse(read(Path.of(f))));
            } catch (java.nio.file.InvalidPathException e) {
                err.println("kmodel: " + name + ": cannot read: not a valid path");
                return Kmodel.EXIT_USAGE;
            } catch (java.nio.file.NoSuchFileException e) {
                err.println("kmodel: " + name + ": cannot read: no such file");
                return Kmodel.EXIT_USAGE;
            } catch (IOException | RuntimeException e) {
                err.println("kmodel: " + name + ": cannot read: " + Kmodel.oneLine(String.valueOf(e.getMessage())));
                return Kmodel.EXIT_USAGE;
            } catch (LitmusException e) {
                err.println("kmodel: " + name + ":" + e.line + ": " + Kmodel.oneLine(e.getMessage()));
                return Kmodel.EXIT_USAGE;
            }
        }
        java.io.StringWriter buf = new java.io.StringWriter();
        PrintWriter o = new PrintWriter(buf);
        boolean disagree = false;
        boolean inconclusive = false;
        for (int k = 0; k < tests.size(); k++) {
            String name = Kmodel.oneLine(String.valueOf(files.get(k)));
            Litmus t = tests.get(k);
            if (k > 0) {
                o.println();
            }
            try {
                LitmusRunner.Outcome r = LitmusRunner.run(t, maxStates);
                print(o, t, r, !noWitness);
                disagree |= r.disagrees();
            } catch (LitmusException e) {
                err.println("kmodel: " + name + ":" + e.line + ": " + Kmodel.oneLine(e.getMessage()));
                return Kmodel.EXIT_USAGE;
            } catch (LitmusRunner.Budget e) {
                o.println("Test " + Kmodel.oneLine(t.name()) + " inconclusive: " + e.getMessage());
                inconclusive = true;
            }
        }
        o.flush();
        out.print(buf);
        out.flush();
        return disagree ? Kmodel.EXIT_VIOLATION : inconclusive ? Kmodel.EXIT_INCONCLUSIVE : 0;
    }

    /** Reads at most {@link #MAX_BYTES} (a longer file is refused, not read on). */
    static String read(Path f) throws IOException {
        if (!Files.isRegularFile(f)) {
            throw new IOException("not a regular file");
        }
        try (InputStream in = Files.newInputStream(f)) {
            byte[] b = in.readNBytes(MAX_BYTES + 1);
            if (b.length > MAX_BYTES) {
                throw new IOException("larger than " + MAX_BYTES + " bytes");
            }
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    static void print(PrintWriter out, Litmus t, LitmusRunner.Outcome o, boolean witness) {
        String kind = o.quantifier.equals("exists") ? "Allowed" : o.quantifier.equals("forall") ? "Required" : "Forbidden";
        out.println("Test " + Kmodel.oneLine(o.name) + " " + kind);
        out.println("States " + o.states.size());
        for (Map.Entry<String, Boolean> e : o.states.entrySet()) {
            out.println(e.getKey() + (e.getValue() ? "  <- matches" : ""));
        }
        out.println(o.ok() ? "Ok" : "No");
        out.println("Witnesses");
        out.println("Positive: " + o.positive + " Negative: " + o.negative);
        out.println("Observation " + Kmodel.oneLine(o.name) + " " + o.observation() + " " + o.positive + " " + o.negative);
        if (witness && o.witness != null) {
            out.println(o.quantifier.equals("forall") ? "Counterexample:" : "Witness:");
            out.print(o.witness);
        }
        if (o.expected != null) {
            out.println("Result: " + o.expected + (o.disagrees() ? " (DISAGREES)" : " (agrees)"));
        }
    }
}
