package kmodel.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/BARRIERS.md against the code, cheaply (the regeneration, minutes, is
 * {@code BarriersDocFullTest}): every barrier site in the model's sources has a row and every row
 * a site; the site scan is shown finding a site added to a source tree; an ablation is shown
 * effective and replayable on one site; bad input is one line.
 */
class BarriersDocTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z_]+@\\w+)` \\|", Pattern.MULTILINE);

    /** The site keys with a row in {@code markdown}. */
    static Set<String> rows(String markdown) {
        Set<String> out = new TreeSet<>();
        Matcher m = ROW.matcher(markdown);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void everyBarrierSiteInTheCodeHasARowAndEveryRowASite() throws IOException {
        Path root = Docs.root();
        String doc = Files.readString(root.resolve("docs/BARRIERS.md"), StandardCharsets.UTF_8);
        Set<String> sites = BarriersCommand.sites(root).keySet();
        assertTrue(sites.size() >= 13, "the Barriers calls and the primitives' fences: " + sites);
        assertEquals(new TreeSet<>(sites), rows(doc), "docs/BARRIERS.md is stale: ./kmodel barriers --write docs/BARRIERS.md");
    }

    /** The deliberate break: a barrier added to the code is a site the doc has no row for. */
    @Test
    void aBarrierAddedToTheCodeIsFoundMissingFromTheDoc(@TempDir Path tmp) throws IOException {
        Path src = tmp.resolve("mm-filemap/src/main/java/kmodel/mm/Extra.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "class Extra {\n    /** mm/filemap.c: {@code extra()} (v5.10). */\n"
                + "    static void extra() {\n        Barriers.smpWmb(\"extra\");\n    }\n}\n");
        var sites = BarriersCommand.sites(tmp);
        assertEquals(Set.of("smp_wmb@extra"), sites.keySet());
        assertEquals("mm-filemap/src/main/java/kmodel/mm/Extra.java:4", sites.get("smp_wmb@extra").source);
        assertTrue(sites.get("smp_wmb@extra").mirrors.startsWith("mm/filemap.c: `extra()`"), sites.get("smp_wmb@extra").mirrors);
        String doc = Files.readString(Docs.root().resolve("docs/BARRIERS.md"), StandardCharsets.UTF_8);
        assertFalse(rows(doc).contains("smp_wmb@extra"));
    }

    /**
     * The ablation is what shows a barrier necessary: sbitmap_queue_clear()'s
     * smp_mb__after_atomic() switched off, tag-waiters misses a wake-up under lkmm at preemption
     * bound 1 (the catalog's sbq-clear-no-mb-after-atomic); its replay token replays it.
     */
    @Test
    void ablatingSbitmapQueueClearsBarrierMissesAWakeupAndReplays() {
        CliRun r = CliRun.kmodel("barriers", "--scenario", "tag-waiters", "--site", "smp_mb__after_atomic@sbitmap_queue_clear");
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.contains("smp_mb__after_atomic@sbitmap_queue_clear: necessary: tag-waiters missed-wakeup"), r.out);
        Matcher m = Pattern.compile("replay (km1\\.\\S+)").matcher(r.out);
        assertTrue(m.find(), r.out);
        CliRun replay = CliRun.kmodel("replay", m.group(1));
        assertTrue(replay.out.contains("missed-wakeup"), replay.out + replay.err);
        assertTrue(replay.out.contains("no-barrier:smp_mb__after_atomic@sbitmap_queue_clear"), replay.out);
    }

    @Test
    void badInputIsOneLine() {
        List<String[]> bad = new ArrayList<>();
        bad.add(new String[] {"barriers", "--site", "smp_mb@nowhere"});
        bad.add(new String[] {"barriers", "--scenario", "no-such-scenario", "--site", "smp_mb@set_current_state"});
        bad.add(new String[] {"barriers", "--preemptions", "-1"});
        for (String[] argv : bad) {
            CliRun r = CliRun.kmodel(argv);
            assertTrue(r.code != 0, String.join(" ", argv));
            assertEquals(1, r.err.strip().lines().count(), String.join(" ", argv) + ": " + r.err);
            assertFalse(r.err.contains("Exception"), r.err);
        }
    }
}
