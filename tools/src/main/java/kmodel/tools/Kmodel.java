package kmodel.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import kmodel.verification.explore.NondeterminismException;
import kmodel.verification.explore.ReplayMismatchException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code kmodel} command line: {@code check}, {@code replay}, {@code swarm}, {@code bench},
 * {@code bugs}, {@code scenarios}, {@code options}.
 *
 * <p>Exit codes: 0 all checks passed, clean and complete (or a listing), 1 a violation was found
 * (check, replay), 2 bad usage (unknown option, command, scenario, bug or Kconfig option; a
 * malformed value or replay token), 3 kmodel itself failed (a scenario that is not deterministic,
 * an internal error), 4 no violation but a check was inconclusive (check: an execution stopped at
 * the step bound, or the execution budget cut an exhaustive search). Errors are one line on
 * stderr, {@code kmodel: <what is wrong>}, plus at most a hint line for syntax errors; never a
 * stack trace unless {@code KMODEL_DEBUG} is set.
 */
@Command(name = "kmodel",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = "An executable, model-checked Java model of the Linux buffered-read path.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            CheckCommand.class,
            ReplayCommand.class,
            SwarmCommand.class,
            BenchCommand.class,
            BugsCommand.class,
            ScenariosCommand.class,
            OptionsCommand.class,
            CommandLine.HelpCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:all checks passed (clean and complete)",
            "1:a violation was found",
            "2:bad usage (unknown option, scenario, bug; malformed value or token)",
            "3:kmodel itself failed (scenario not deterministic, internal error)",
            "4:no violation, but a check hit the step bound or the execution budget"
        })
public final class Kmodel implements Runnable {
    /** A violation was found. */
    public static final int EXIT_VIOLATION = 1;
    /** Bad usage. */
    public static final int EXIT_USAGE = 2;
    /** kmodel itself failed. */
    public static final int EXIT_INTERNAL = 3;
    /** No violation, but a check was not clean and complete (step bound hit, execution budget reached). */
    public static final int EXIT_INCONCLUSIVE = 4;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "missing command: one of " + commandNames(spec.commandLine()));
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        CommandLine cmd = commandLine();
        int code = cmd.execute(args);
        cmd.getOut().flush();
        cmd.getErr().flush();
        System.exit(code);
    }

    /** The configured command line (tests run it in-process with their own out/err writers). */
    public static CommandLine commandLine() {
        return commandLine(CommandLine.defaultFactory());
    }

    /** The configured command line, its commands made by {@code factory} (tests inject a fake clock so). */
    static CommandLine commandLine(CommandLine.IFactory factory) {
        CommandLine cmd = new CommandLine(new Kmodel(), factory);
        cmd.setParameterExceptionHandler(Kmodel::usageError);
        cmd.setExecutionExceptionHandler(Kmodel::executionError);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setUsageHelpAutoWidth(true);
        return cmd;
    }

    /** A syntax or value error found by picocli or thrown by a command: one line plus a hint. */
    private static int usageError(ParameterException ex, String[] args) {
        CommandLine where = ex.getCommandLine();
        PrintWriter err = where.getErr();
        String message = ex.getMessage();
        if (ex instanceof UnmatchedArgumentException) {
            UnmatchedArgumentException u = (UnmatchedArgumentException) ex;
            List<String> unmatched = u.getUnmatched();
            boolean root = where.getParent() == null;
            if (root && !unmatched.isEmpty() && !unmatched.get(0).startsWith("-")) {
                message = "unknown command '" + unmatched.get(0) + "' (commands: " + commandNames(where) + ")";
            }
            List<String> suggestions = new ArrayList<>(u.getSuggestions());
            suggestions.remove("help");
            if (!suggestions.isEmpty()) {
                message += "; did you mean " + String.join(" or ", suggestions) + "?";
            }
        }
        err.println("kmodel: " + oneLine(message));
        if (!(ex instanceof OneLine)) {
            err.println("try: " + where.getCommandSpec().qualifiedName() + " --help");
        }
        err.flush();
        return EXIT_USAGE;
    }

    /** An exception thrown by a command. */
    private static int executionError(Exception ex, CommandLine where, ParseResult parsed) {
        PrintWriter err = where.getErr();
        int code;
        String message;
        if (ex instanceof NondeterminismException) {
            message = oneLine(ex.getMessage());
            code = EXIT_INTERNAL;
        } else if (ex instanceof ReplayMismatchException) {
            message = "replay token does not fit its scenario: " + oneLine(ex.getMessage());
            code = EXIT_USAGE;
        } else if (ex instanceof IllegalArgumentException && ex.getMessage() != null) {
            // KconfigTable, ScenarioRegistry, ReplayToken: the message is the one line to print.
            message = oneLine(ex.getMessage());
            code = EXIT_USAGE;
        } else {
            message = "internal error: " + oneLine(String.valueOf(ex)) + " (set KMODEL_DEBUG=1 for the stack trace)";
            code = EXIT_INTERNAL;
        }
        err.println("kmodel: " + message);
        if (System.getenv("KMODEL_DEBUG") != null) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    private static String oneLine(String s) {
        String t = s == null ? "" : s.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl).strip();
    }

    static String commandNames(CommandLine cmd) {
        StringBuilder sb = new StringBuilder();
        for (String name : cmd.getSubcommands().keySet()) {
            if (name.equals("help")) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(name);
        }
        return sb.toString();
    }

    /**
     * A usage error whose message is complete on its own (a bad value rather than bad syntax):
     * printed as one line, without the hint.
     */
    static final class OneLine extends ParameterException {
        private static final long serialVersionUID = 1L;

        OneLine(CommandLine cmd, String message) {
            super(cmd, message);
        }
    }

    /** {@code kmodel --version}: the version written into the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Kmodel.class.getPackage().getImplementationVersion();
            return new String[] {"kmodel " + (v != null ? v : "(development build)")};
        }
    }
}
