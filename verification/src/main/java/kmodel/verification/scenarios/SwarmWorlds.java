package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;

/**
 * Every swarm's recipes behind one name space: {@code page} (the page lock and wait swarm of
 * {@link SwarmRecipe}, whose text has no kind word), {@code btrfs}, {@code uring} and
 * {@code write} ({@link KindRecipe}s whose text starts with the kind word). A recipe's scenario
 * is {@code swarm:<text>} whichever kind it is.
 */
public final class SwarmWorlds {
    /** The page lock and wait swarm's name (its recipes' text has no kind word). */
    public static final String PAGE = "page";

    private static final List<SwarmKind> KINDS = Arrays.asList(new UringSwarm(), new WriteSwarm(), new BtrfsSwarm());

    private SwarmWorlds() {
    }

    /** Every swarm's name: {@code page}, then the kinds. */
    public static List<String> names() {
        List<String> l = new ArrayList<>();
        l.add(PAGE);
        for (SwarmKind k : KINDS) {
            l.add(k.name());
        }
        return l;
    }

    /** The kind called {@code name}, or null (also for {@code page}). */
    public static SwarmKind kind(String name) {
        for (SwarmKind k : KINDS) {
            if (k.name().equals(name)) {
                return k;
            }
        }
        return null;
    }

    /** The recipe text of swarm {@code world} for {@code seed}; IllegalArgumentException for an unknown world. */
    public static String generate(String world, long seed) {
        if (world.equals(PAGE)) {
            return SwarmGenerator.generate(seed).toString();
        }
        SwarmKind k = kind(world);
        if (k == null) {
            throw new IllegalArgumentException("unknown swarm world '" + SwarmRecipe.abbreviate(world) + "' (known: "
                    + Texts.join(", ", names()) + ")");
        }
        return k.generate(seed).toString();
    }

    /**
     * The default execution budget of one recipe of swarm {@code world}: 100,000 for the page
     * swarm; less for the others, whose worlds are larger (a ring brings its io-wq, a btrfs volume
     * its devices), so that the default {@code ./kmodel swarm} of 20 recipes stays within minutes.
     */
    public static long defaultBudget(String world) {
        SwarmKind k = kind(world);
        return k == null ? 100_000 : k.defaultBudget();
    }

    /** The swarm a recipe text belongs to: its first word if that is a kind, else {@code page}. */
    public static String worldOf(String text) {
        String t = text == null ? "" : text.strip();
        int sp = t.indexOf(' ');
        String first = sp < 0 ? t : t.substring(0, sp);
        return kind(first) != null ? first : PAGE;
    }

    /**
     * Parses a recipe of any swarm and returns its canonical text; IllegalArgumentException with
     * one line ({@code swarm recipe: ...}) when it is not a well-formed recipe.
     */
    public static String canonical(String text) {
        String w = worldOf(text);
        if (w.equals(PAGE)) {
            return SwarmRecipe.parse(text).toString();
        }
        return KindRecipe.parse(kind(w), text).toString();
    }

    /** The scenario of a recipe text of any swarm; IllegalArgumentException (one line) for a bad recipe. */
    public static Scenario<?> scenario(String text) {
        String w = worldOf(text);
        if (w.equals(PAGE)) {
            return SwarmScenarios.scenario(SwarmRecipe.parse(text));
        }
        return kind(w).scenario(KindRecipe.parse(kind(w), text));
    }
}
