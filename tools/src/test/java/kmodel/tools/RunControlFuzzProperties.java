package kmodel.tools;

import java.util.List;
import kmodel.tools.CliSurfaces.Surface;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The input surfaces of {@code check --time-budget} and {@code bench} under {@link CliFuzzProperties}'
 * oracle ({@link CliOracle}): every value, valid, near-valid or hostile, ends in a clean run or a
 * one-line error with exit 2. Fixed seeds; coverage checks make each surface both refuse and
 * accept some inputs.
 */
class RunControlFuzzProperties {
    static final Surface<String> TIME_BUDGET = CliSurfaces.option("--time-budget", CliSurfaces.smallCheck(),
            "--time-budget", CliSurfaces.valuesAround(List.of("30s", "5m", "1h", "1h30m", "500ms", "2d", "1s500ms")));
    static final Surface<String> BENCH_SCENARIO = CliSurfaces.option("bench --scenario",
            List.of("bench", "--no-jmh", "--quick", "--executions", "3"), "--scenario",
            CliSurfaces.valuesAround(List.of("textbook-refcount", "textbook-waitqueue")));
    static final Surface<String> BENCH_EXECUTIONS = CliSurfaces.option("bench --executions",
            List.of("bench", "--no-jmh", "--quick", "--scenario", "textbook-refcount", "--bug", "textbook-double-put"),
            "--executions", CliSurfaces.numbers().filter(v -> !v.matches("\\s*\\+?0*[1-9]\\d{3,}\\s*")));

    private static <T> void sound(Surface<T> surface, T input) {
        CliRun r = surface.run(input);
        Statistics.label("refused").collect(r.code == Kmodel.EXIT_USAGE);
        CliOracle.assertSound(r);
        Statistics.label("refused").coverage(c -> {
            c.check(true).count(n -> n > 0);
            c.check(false).count(n -> n > 0);
        });
    }

    @Property(tries = 60, seed = "60630")
    void timeBudgetsEndCleanly(@ForAll("timeBudget") String value) {
        sound(TIME_BUDGET, value);
    }

    @Property(tries = 15, seed = "60631")
    void benchScenariosEndCleanly(@ForAll("benchScenario") String value) {
        sound(BENCH_SCENARIO, value);
    }

    @Property(tries = 20, seed = "60632")
    void benchBudgetsEndCleanly(@ForAll("benchExecutions") String value) {
        sound(BENCH_EXECUTIONS, value);
    }

    @Provide
    Arbitrary<String> timeBudget() {
        return TIME_BUDGET.inputs;
    }

    @Provide
    Arbitrary<String> benchScenario() {
        return BENCH_SCENARIO.inputs;
    }

    /**
     * Numbers, but none from 1,000 up that parse: a bench budget that large is valid and runs
     * the plain unbounded search that long (the oracle needs no such run to judge the parser).
     */
    @Provide
    Arbitrary<String> benchExecutions() {
        return BENCH_EXECUTIONS.inputs;
    }
}
