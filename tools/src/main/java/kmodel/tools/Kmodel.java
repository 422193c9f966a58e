package kmodel.tools;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import kmodel.explorer.search.NondeterminismException;
import kmodel.explorer.search.ReplayMismatchException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * The {@code kmodel} command line: {@code check}, {@code merge}, {@code replay}, {@code swarm},
 * {@code bench}, {@code bugs}, {@code scenarios}, {@code options}, {@code fio}, {@code xfs_io},
 * {@code reproduce}, {@code xref}, {@code litmus}.
 *
 * <p>Exit codes: 0 all checks passed, clean and complete (or a listing), 1 a violation was found
 * (check, merge, replay), 2 bad usage (unknown option, command, scenario, bug or Kconfig option; a
 * malformed value or replay token), 3 kmodel itself failed (a scenario that is not deterministic,
 * an internal error), 4 no violation but a check was inconclusive (check: an execution stopped at
 * the step bound, or the execution budget cut an exhaustive search). Errors are exactly one line
 * on stderr, {@code kmodel: <what is wrong>} (for syntax errors ending in a {@code (try: ...
 * --help)} hint), with control characters escaped; anything unexpected thrown inside kmodel, an
 * {@link Error} included, is one line and exit 3; never a stack trace unless {@code KMODEL_DEBUG}
 * is set (and not empty or 0). The input surfaces are fuzzed by {@code CliFuzzProperties}.
 */
@Command(name = "kmodel",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = "An executable, model-checked Java model of the Linux buffered-read path.",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            CheckCommand.class,
            MergeCommand.class,
            ReplayCommand.class,
            SwarmCommand.class,
            BenchCommand.class,
            BugsCommand.class,
            BarriersCommand.class,
            ScenariosCommand.class,
            OptionsCommand.class,
            ReproduceCommand.class,
            FioCommand.class,
            XfsIoCommand.class,
            XrefCommand.class,
            LitmusCommand.class,
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

    /** Print stack traces of internal errors ({@code KMODEL_DEBUG}). */
    private boolean debug;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "missing command: one of " + commandNames(spec.commandLine()));
    }

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        boolean debug = debugRequested(System.getenv("KMODEL_DEBUG"));
        CommandLine cmd;
        try {
            cmd = commandLine(CommandLine.defaultFactory(), debug);
        } catch (Throwable t) {
            PrintWriter err = new PrintWriter(System.err, true);
            System.exit(internalError(t, err, debug));
            return;
        }
        int code = execute(cmd, args);
        cmd.getOut().flush();
        cmd.getErr().flush();
        System.exit(code);
    }

    /** Whether {@code KMODEL_DEBUG} asks for stack traces: set, and neither empty nor 0. */
    static boolean debugRequested(String value) {
        return value != null && !value.isEmpty() && !value.equals("0");
    }

    /**
     * Runs {@code cmd} on {@code args}: its exit code, and for anything thrown that picocli does
     * not handle (an {@link Error} while parsing, say) one line and {@link #EXIT_INTERNAL}. Never
     * throws.
     */
    static int execute(CommandLine cmd, String... args) {
        try {
            return cmd.execute(args);
        } catch (Throwable t) {
            boolean debug = cmd.getCommandSpec().userObject() instanceof Kmodel
                    && ((Kmodel) cmd.getCommandSpec().userObject()).debug;
            return internalError(t, cmd.getErr(), debug);
        }
    }

    /** The configured command line (tests run it in-process with their own out/err writers). */
    public static CommandLine commandLine() {
        return commandLine(CommandLine.defaultFactory(), debugRequested(System.getenv("KMODEL_DEBUG")));
    }

    /**
     * The command line with its commands made by {@code factory} (tests swap one in), printing
     * stack traces of internal errors only when {@code debug}.
     */
    static CommandLine commandLine(CommandLine.IFactory factory, boolean debug) {
        Kmodel root = new Kmodel();
        root.debug = debug;
        CommandLine cmd = new CommandLine(root, factory);
        cmd.setParameterExceptionHandler(Kmodel::usageError);
        cmd.setExecutionExceptionHandler((ex, where, parsed) -> executionError(ex, where, debug));
        // picocli wraps only Exceptions thrown by a command; an Error (OutOfMemoryError,
        // StackOverflowError, AssertionError) would escape execute() with a JVM stack trace.
        cmd.setExecutionStrategy(parsed -> {
            try {
                return new CommandLine.RunLast().execute(parsed);
            } catch (CommandLine.ParameterException | CommandLine.ExecutionException e) {
                throw e;
            } catch (Error e) {
                return internalError(e, cmd.getErr(), debug);
            }
        });
        // "@file" arguments would make picocli read any file named on the command line (even
        // /dev/zero, without end): kmodel takes no argument files.
        cmd.setExpandAtFiles(false);
        // One rule for every value (Values): numbers as ASCII digits, nothing trimmed.
        Values.register(cmd);
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
        String hint = ex instanceof OneLine ? "" : " (try: " + where.getCommandSpec().qualifiedName() + " --help)";
        err.println("kmodel: " + oneLine(message) + hint);
        err.flush();
        return EXIT_USAGE;
    }

    /** An exception thrown by a command. */
    private static int executionError(Exception ex, CommandLine where, boolean debug) {
        PrintWriter err = where.getErr();
        int code;
        String message;
        if (ex instanceof NondeterminismException) {
            message = oneLine(ex.getMessage());
            code = EXIT_INTERNAL;
        } else if (ex instanceof kmodel.kernel.sched.ExplorationLimitException) {
            // an internal limit, said as itself with what to change (issue 25), not as a bad token
            message = oneLine(ex.getMessage());
            code = EXIT_INCONCLUSIVE;
        } else if (ex instanceof ReplayMismatchException) {
            message = "replay token does not fit its scenario: " + oneLine(ex.getMessage());
            code = EXIT_USAGE;
        } else if (ex instanceof IllegalArgumentException && ex.getMessage() != null) {
            // KconfigTable, ScenarioRegistry, ReplayToken: the message is the one line to print.
            message = oneLine(ex.getMessage());
            code = EXIT_USAGE;
        } else {
            return internalError(ex, err, debug);
        }
        err.println("kmodel: " + message);
        if (debug) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /**
     * Anything unexpected thrown inside kmodel, {@link Error}s included: one line naming it and
     * {@link #EXIT_INTERNAL}; the stack trace follows only when {@code debug}.
     */
    static int internalError(Throwable t, PrintWriter err, boolean debug) {
        err.println("kmodel: internal error: " + oneLine(String.valueOf(t))
                + (debug ? "" : " (set KMODEL_DEBUG=1 for the stack trace)"));
        if (debug) {
            t.printStackTrace(err);
        }
        err.flush();
        return EXIT_INTERNAL;
    }

    /** Most characters of a message line; longer messages (an echoed huge argument) are cut. */
    static final int MAX_MESSAGE = 1000;

    /**
     * {@code s} as one line of printable text: line breaks and other control characters (which
     * an echoed argument or token may hold) are escaped, not printed, and the line is cut at
     * {@link #MAX_MESSAGE} characters.
     */
    static String oneLine(String s) {
        String t = s == null ? "" : s.strip();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.length(); i++) {
            if (sb.length() >= MAX_MESSAGE) {
                sb.append("... (").append(t.length() - i).append(" more characters)");
                break;
            }
            char c = t.charAt(i);
            if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029 || c == 0x85) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
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
