package kmodel.tools;

import java.util.concurrent.Callable;
import kmodel.verification.ScenarioRegistry;
import kmodel.verification.world.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kmodel scenarios}: every registered scenario with its one-line description. */
@Command(name = "scenarios",
        mixinStandardHelpOptions = true,
        versionProvider = Kmodel.Version.class,
        description = "List the scenarios (check one with: kmodel check --scenario NAME).")
final class ScenariosCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Table t = new Table("SCENARIO", "DESCRIPTION");
        for (Scenario<?> s : ScenarioRegistry.standard().all()) {
            t.row(s.name(), s.description());
        }
        for (Scenario<?> s : ScenarioRegistry.findings().all()) {
            t.row(s.name(), s.description() + " [finding: fails on purpose; not run by default]");
        }
        for (Scenario<?> s : ScenarioRegistry.large().all()) {
            t.row(s.name(), s.description() + " [large: not run by default; see docs/scenarios.md]");
        }
        for (Scenario<?> s : ScenarioRegistry.demos().all()) {
            t.row(s.name(), s.description() + " [demo: stops at the step bound on purpose; not run by default]");
        }
        t.print(spec.commandLine().getOut());
        return 0;
    }
}
