package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The figures of docs/figures.txt marked {@code (full)}: those whose commands take more than a
 * few seconds each, checked in the full tier only (tag {@code full}). See {@link Figures}.
 */
@Tag("full")
class FiguresFullTest {
    @Test
    void everyFullFigureIsWhatItsCommandPrints() {
        List<String> problems = FiguresTest.problems(true);
        assertTrue(problems.isEmpty(), () -> problems.size() + " figures differ:\n" + String.join("\n", problems));
    }
}
