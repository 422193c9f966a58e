package kmodel.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import kmodel.explorer.ModelCheck;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.kernel.Kconfig;
import kmodel.kernel.sched.DeterministicRuntime;
import kmodel.kernel.sched.ExecutionResult;
import kmodel.kernel.sched.Program;
import kmodel.explorer.search.ExplorationStrategy;
import kmodel.explorer.search.PctStrategy;
import kmodel.explorer.search.RandomStrategy;
import kmodel.verification.world.Scenario;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's claim ("Btrfs: improve multi-thread buffer read", 67c9684f48ea) as a deterministic
 * test: four readers of the same file race on {@code add_to_page_cache_lru()}; with the vanilla
 * {@code extent_readpages()} each reader reads its page as soon as it has added it, so the bios
 * hold one page each (the seed's t1..t4 picture), and with the 16-page page pool (or v5.10's
 * batches) a reader first adds what it can and then reads it in one bio. Over the same fixed
 * seeded schedules of {@code btrfs-4-readers} (200 uniformly random ones, seed 1: every
 * scheduling point may switch readers, as on four CPUs), the mean pages per bio of each patched
 * form ({@code BTRFS_READPAGES} 1, 2, 3) is higher than the vanilla form's (0), and vanilla shows
 * the seed's pattern (four one-page bios for the four pages) far more often. Measured: vanilla
 * 1.843 pages per bio, seed 000 v2 and v3.6 3.902, v5.10 2.204 (its
 * {@code page_cache_ra_unbounded()} adds the pages to the cache one at a time and ends a batch at
 * a page another reader cached, so racing readers still cut each other's bios; the page pool's
 * {@code ->readpages} gets its pages allocated beforehand and adds them in a tight loop). Speed is not asserted (the seed's 745 -> 934
 * MB/s); the figures are printed.
 *
 * <p>Each execution's pages per bio is read from the scenario's outcome ({@code pages/bio {n=bios, ...}}),
 * which counts every bio {@code submit_one_bio()} submitted, the {@code ->readpage()} retries
 * included. The same schedule seeds give the same executions: the numbers are exact, not timings.
 */
@Tag("modelcheck")
class SeedClaimModelCheck {
    static final int SCHEDULES = 200;
    static final long SEED = 1;
    /** Least ratio of a form's mean pages per bio to vanilla's, by form (set below what was measured, see the README). */
    private static final double[] MIN_RATIO = {1, 1.5, 1.5, 1.1};
    private static final Pattern PAGES_PER_BIO = Pattern.compile("pages/bio \\{([^}]*)\\}");

    /** Bios and pages over a set of schedules, and how many executions had the seed's four one-page bios. */
    static final class Tally {
        long executions;
        long bios;
        long pages;
        long onePageBios;
        long seedPattern;
        final Map<String, Long> distributions = new TreeMap<>();

        double mean() {
            return (double) pages / bios;
        }

        void add(String outcome) {
            Matcher m = PAGES_PER_BIO.matcher(outcome);
            assertTrue(m.find(), outcome);
            executions++;
            distributions.merge("{" + m.group(1) + "}", 1L, Long::sum);
            long b = 0;
            long p = 0;
            for (String kv : m.group(1).split(", ")) {
                String[] x = kv.split("=");
                int size = Integer.parseInt(x[0]);
                long n = Long.parseLong(x[1]);
                b += n;
                p += size * n;
                if (size == 1) {
                    onePageBios += n;
                }
            }
            bios += b;
            pages += p;
            if (p == 4 && b == 4) {
                seedPattern++;
            }
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d executions, %d bios, %d pages, %.3f pages/bio, %d one-page bios, "
                    + "%d executions with four one-page bios", executions, bios, pages, mean(), onePageBios, seedPattern);
        }
    }

    /** Runs {@code btrfs-4-readers} under {@code strategy} ({@value #SCHEDULES} executions) with form {@code form}. */
    static Tally tally(int form, ExplorationStrategy strategy) {
        Scenario<?> s = ScenarioRegistry.large().get("btrfs-4-readers");
        Kconfig config = s.settings().overlay(Kconfig.defaults().with(BtrfsOptions.BTRFS_READPAGES, form));
        Program program = s.program();
        return DeterministicRuntime.callOnRuntimeThread(() -> {
            Tally t = new Tally();
            try (DeterministicRuntime rt = new DeterministicRuntime()) {
                do {
                    ExecutionResult r = rt.execute(program, strategy, config, ModelCheck.DEFAULT_STEPS, false, false);
                    assertNull(r.violation(), () -> r.violation().summary());
                    assertNull(r.stepBound(), r::stepBound);
                    t.add(r.outcome());
                } while (strategy.advance());
            }
            return t;
        });
    }

    @Test
    void thePagePoolFormsBuildLargerBiosThanVanillaOverTheSameSeededSchedules() {
        Tally[] t = new Tally[4];
        for (int form = 0; form <= 3; form++) {
            t[form] = tally(form, new RandomStrategy(SEED, SCHEDULES));
            System.out.printf(Locale.ROOT, "btrfs-4-readers, %d random schedules (seed %d), BTRFS_READPAGES=%d: %s%n    %s%n",
                    SCHEDULES, SEED, form, t[form], t[form].distributions);
            assertEquals(SCHEDULES, t[form].executions);
            assertEquals(4L * SCHEDULES, t[form].pages, "every execution reads the four pages once");
        }
        final Tally vanilla = t[0];
        assertTrue(vanilla.seedPattern > 0, vanilla::toString);
        for (int form = 1; form <= 3; form++) {
            final Tally patched = t[form];
            final int f = form;
            assertTrue(patched.mean() >= MIN_RATIO[form] * vanilla.mean(), () -> "form " + f + " " + patched + " vs vanilla " + vanilla);
            assertTrue(vanilla.seedPattern >= 5 * Math.max(1, patched.seedPattern),
                    () -> "the seed's four one-page bios, vanilla " + vanilla + " vs form " + f + " " + patched);
        }
    }

    /**
     * PCT (depth 3) is no measure of this race: it runs one reader ahead of the others most of the
     * time, so even vanilla builds one 4-page bio in most executions (measured: vanilla 3.865 pages
     * per bio over 200 PCT schedules, seed 1, against 4.000 for each patched form). Kept as a
     * record that the claim needs schedules that interleave the readers' page additions.
     */
    @Test
    void pctSchedulesRarelyInterleaveTheReadersEnoughToShowTheSeedsPattern() {
        Tally vanilla = tally(0, new PctStrategy(SEED, 3, SCHEDULES));
        System.out.printf(Locale.ROOT, "btrfs-4-readers, %d PCT schedules (depth 3, seed %d), BTRFS_READPAGES=0: %s%n    %s%n",
                SCHEDULES, SEED, vanilla, vanilla.distributions);
        assertTrue(vanilla.mean() > 3.5, vanilla::toString);
    }
}
