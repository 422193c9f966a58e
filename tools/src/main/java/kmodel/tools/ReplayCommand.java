package kmodel.tools;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Function;
import kmodel.explorer.ModelCheck;
import kmodel.explorer.trace.ReplayToken;
import kmodel.verification.ScenarioRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code kmodel replay TOKEN}: re-runs the schedule a failed check printed and draws the same
 * diagram. Exit 1 when the replayed run violates, 0 when it does not; a malformed token, or one
 * that names an unknown scenario, bug or option, is one line on stderr and exit 2.
 */
@Command(name = "replay",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        sortOptions = false,
        description = "Re-run the schedule of a replay token (printed by a failing check) and draw its diagram.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the replayed run has no violation",
            "1:the replayed run violates",
            "2:malformed or unusable token"
        })
final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Token text to token: {@link ReplayToken#decode} (tests swap in deliberately broken ones). */
    private final Function<String, ReplayToken> decoder;

    ReplayCommand() {
        this(ReplayToken::decode);
    }

    ReplayCommand(Function<String, ReplayToken> decoder) {
        this.decoder = decoder;
    }

    @Parameters(paramLabel = "TOKEN", description = "The token from a 'replay: ./kmodel replay km1....' line.")
    String token;

    @Option(names = {"-v", "--verbose"}, description = "Draw every scheduling point, not only model events.")
    boolean verbose;

    @Override
    public Integer call() {
        CommandLine cmd = spec.commandLine();
        ModelCheck.Replay r;
        try {
            r = ModelCheck.replay(decoder.apply(token), ScenarioRegistry.everything(), verbose);
        } catch (IllegalArgumentException e) {
            // ReplayToken.MalformedTokenException, unknown scenario / bug / option.
            throw new Kmodel.OneLine(cmd, e.getMessage());
        }
        PrintWriter out = cmd.getOut();
        String config = r.token().config();
        out.println("scenario " + r.token().scenario() + ", config " + (config.isEmpty() ? "defaults" : "[" + config + "]")
                + ", " + r.token().schedule().size() + " scheduling decisions");
        out.print(r.diagram());
        if (!r.diagram().isEmpty() && !r.diagram().endsWith("\n")) {
            out.println();
        }
        int code;
        if (r.violation() != null) {
            out.println(r.violation().summary());
            code = Kmodel.EXIT_VIOLATION;
        } else if (r.stepBound() != null) {
            out.println("no violation; the run stopped at the step bound: " + r.stepBound());
            code = 0;
        } else {
            out.println("no violation");
            code = 0;
        }
        out.flush();
        return code;
    }
}
