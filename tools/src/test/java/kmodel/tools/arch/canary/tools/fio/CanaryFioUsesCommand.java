package kmodel.tools.arch.canary.tools.fio;

import kmodel.tools.arch.canary.tools.CanaryCommand;

/** Breaks the tools package rule: a library under the commands uses a command. */
public final class CanaryFioUsesCommand {
    private CanaryFioUsesCommand() {
    }

    public static String job() {
        return CanaryCommand.call();
    }
}
