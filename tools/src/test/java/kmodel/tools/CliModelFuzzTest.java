package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import kmodel.tools.CliModel.Input;
import net.jqwik.api.Example;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every input of the command line, as picocli's model of it lists them ({@link CliModel}): each
 * option and positional parameter of each command gets {@value #CASES} generated cases (fixed
 * seed) and every run must end the way {@link CliOracle} says, a refused value in one line naming
 * the option or the value; one rule reads every value ({@link Values}); and an option added to
 * the model is fuzzed with no list edited.
 */
class CliModelFuzzTest {
    static final int CASES = 8;
    static final long SEED = 60630;

    /** What the cases of one input came to. */
    static final class Outcome {
        int refused;
        int accepted;
        final List<String> problems = new ArrayList<>();
    }

    /** Runs the cases of {@code in} on the command line {@code make} builds. */
    static Outcome fuzz(Supplier<CommandLine> make, Input in, int n, long seed) {
        Outcome o = new Outcome();
        for (List<String> c : CliModel.cases(in, n, seed)) {
            if (CliModel.tooCostly(in, c)) {
                continue;
            }
            CliRun r = CliRun.kmodel(make, CliModel.argv(in, c).toArray(new String[0]));
            List<String> p = new ArrayList<>(CliOracle.problems(r));
            if (r.code == Kmodel.EXIT_USAGE) {
                o.refused++;
                if (in.isOption() && p.isEmpty() && !namesWhere(r.err, in, c)) {
                    p.add("the error names neither " + in.name + " nor its value");
                }
            } else {
                o.accepted++;
            }
            if (!p.isEmpty()) {
                o.problems.add(String.join("; ", p) + "\n" + r);
            }
        }
        return o;
    }

    /** Whether the error line names the option (any of its names) or the value given. */
    static boolean namesWhere(String err, Input in, List<String> caseWords) {
        for (String name : ((OptionSpec) in.arg).names()) {
            if (err.contains(name)) {
                return true;
            }
        }
        if (err.contains("Unmatched argument at index ")) {
            return true; // a stray word (a flag's "value"): picocli names its place and the word
        }
        String last = caseWords.get(caseWords.size() - 1);
        String v = last.startsWith(in.name + "=") ? last.substring(in.name.length() + 1) : last;
        String shown = Kmodel.oneLine(v);
        if (err.contains(shown.substring(0, Math.min(shown.length(), 40)))) {
            return true;
        }
        for (String part : v.split("[=,]")) { // NAME=VALUE: the error may name the Kconfig option or the value
            if (part.length() >= 2 && err.contains(Kmodel.oneLine(part))) {
                return true;
            }
        }
        return false;
    }

    @Example
    void everyCommandHasARunBudget() {
        List<String> commands = new ArrayList<>();
        for (Input in : CliModel.inputs(CliModel.commandLine())) {
            CliModel.context(in.command, in.isOption() ? in.name : null); // throws for a command it does not know
            if (!commands.contains(in.command)) {
                commands.add(in.command);
            }
        }
        for (String c : Kmodel.commandLine().getSubcommands().keySet()) {
            assertTrue(commands.contains(c), c);
        }
    }

    /**
     * Every input, {@value #CASES} cases each (the first a valid value where one is known). One
     * example (jqwik's generators need its thread), every problem reported at once.
     */
    @Example
    void everyInputOfEveryCommandEndsCleanly() {
        everyInput(CASES);
    }

    private static void everyInput(int cases) {
        List<String> problems = new ArrayList<>();
        int inputs = 0;
        for (Input in : CliModel.inputs(CliModel.commandLine())) {
            inputs++;
            Outcome o = fuzz(CliModel::commandLine, in, cases, SEED);
            for (String p : o.problems) {
                problems.add(in + ": " + p);
            }
            if ((!CliModel.validValues(in).isEmpty() || in.isFlag()) && o.accepted == 0
                    && !CliModel.ONLY_REFUSED.contains(in.command + " " + in.name)) {
                problems.add(in + ": no case got past the input checks");
            }
        }
        assertTrue(inputs > 50, "the model lists " + inputs + " inputs");
        assertEquals("", String.join("\n\n", problems));
    }

    /**
     * The one rule of {@link Values}, on every input that takes a value: white space around a
     * valid value is refused (never trimmed), a number is ASCII decimal digits (no {@code +},
     * no {@code 0x}, no other script's digits), and {@code I/N} holds no space.
     */
    @Example
    void everyValueIsReadByTheOneRule() {
        List<String> problems = new ArrayList<>();
        for (Input in : CliModel.inputs(CliModel.commandLine())) {
            if (in.isFlag() || CliModel.validValues(in).isEmpty()) {
                continue;
            }
            String valid = CliModel.validValues(in).get(0);
            if (CliModel.isPath(in)) {
                valid = CliModel.inScratch(valid);
            }
            List<String> bad = new ArrayList<>(List.of(" " + valid, valid + " ", "\t" + valid, valid + "\u00a0"));
            if (valid.matches("[0-9]+")) {
                bad.addAll(List.of("+" + valid, "0x" + valid, "\u0663", valid + "_0", valid + ".0", valid + "L"));
            }
            if (valid.contains("/") && !CliModel.isPath(in)) {
                bad.add(valid.replace("/", " /"));
            }
            for (String b : bad) {
                CliRun r = CliRun.kmodel(CliModel::commandLine, CliModel.argv(in, CliModel.give(in, b, false))
                        .toArray(new String[0]));
                List<String> p = CliOracle.problems(r);
                if (r.code != Kmodel.EXIT_USAGE || !p.isEmpty()) {
                    problems.add(in + ": " + CliOracle.quote(b) + " must be refused in one line: " + p + "\n" + r);
                }
            }
        }
        assertEquals("", String.join("\n\n", problems));
    }

    /** {@code --shard '0 /2'} and {@code --jobs ' 2'}: refused alike (the audit's example). */
    @Example
    void theAuditsExampleIsRefusedAlike() {
        CliRun shard = CliRun.kmodel("check", "--scenario", "textbook-refcount", "--shard", "0 /2", "--json",
                CliModel.inScratch("x.json"));
        CliRun jobs = CliRun.kmodel("check", "--scenario", "textbook-refcount", "--jobs", " 2");
        for (CliRun r : List.of(shard, jobs)) {
            CliOracle.assertSound(r);
            assertEquals(Kmodel.EXIT_USAGE, r.code, r::toString);
        }
        assertTrue(shard.err.startsWith("kmodel: Invalid value for option '--shard': expected I/N"), shard::toString);
        assertTrue(jobs.err.startsWith("kmodel: Invalid value for option '--jobs': expected a whole number"), jobs::toString);
    }

    /**
     * Acceptance: an option added to a command's spec (as a new {@code @Option} field would add
     * it) is among the inputs and is fuzzed, its values read by the shared converters, with no
     * list edited.
     */
    @Example
    void anOptionAddedToACommandSpecIsFuzzedWithoutEditingAList() {
        Supplier<CommandLine> withNew = () -> {
            CommandLine c = CliModel.commandLine();
            c.getSubcommands().get("check").getCommandSpec().addOption(OptionSpec.builder("--frobnicate")
                    .paramLabel("N").type(int.class).description("new").build());
            return c;
        };
        Input added = null;
        for (Input in : CliModel.inputs(withNew.get())) {
            if (in.command.equals("check") && in.name.equals("--frobnicate")) {
                added = in;
            }
        }
        assertTrue(added != null, "the new option is an input");
        assertFalse(CliModel.inputs(CliModel.commandLine()).stream().anyMatch(in -> in.name.equals("--frobnicate")));
        Outcome o = fuzz(withNew, added, 12, SEED);
        assertEquals(List.of(), o.problems);
        assertTrue(o.accepted > 0 && o.refused > 0, () -> o.accepted + " accepted, " + o.refused + " refused");
        CliRun spaced = CliRun.kmodel(withNew, "check", "--scenario", "textbook-refcount", "--executions", "5",
                "--frobnicate", " 2");
        assertEquals(Kmodel.EXIT_USAGE, spaced.code, spaced::toString);
        assertTrue(spaced.err.contains("'--frobnicate': expected a whole number"), spaced::toString);
    }
}
