package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/BARRIERS.md is what {@code ./kmodel barriers --write} writes today (the whole ablation:
 * about a minute or more, hence the full tier; {@link BarriersDocTest} is the cheap check).
 */
@Tag("full")
class BarriersDocFullTest {
    @Test
    void barriersMdIsWhatTheCommandWrites(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("BARRIERS.md");
        CliRun r = CliRun.kmodel("barriers", "--write", out.toString());
        assertEquals(0, r.code, r.err);
        assertEquals(Files.readString(Docs.root().resolve("docs/BARRIERS.md"), StandardCharsets.UTF_8),
                Files.readString(out, StandardCharsets.UTF_8), "docs/BARRIERS.md is stale: ./kmodel barriers --write docs/BARRIERS.md");
    }
}
