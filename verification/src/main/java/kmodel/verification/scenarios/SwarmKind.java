package kmodel.verification.scenarios;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import kmodel.sim.world.Texts;
import kmodel.verification.world.Scenario;

/**
 * A subsystem's swarm: the fields and operations of its recipes ({@link KindRecipe}), what is
 * well-formed, the generator, and the scenario a recipe builds. The page-cache swarm of
 * {@link SwarmRecipe} predates this and keeps its own classes; {@link SwarmWorlds} puts them all
 * behind one name space.
 */
public abstract class SwarmKind {
    /** A head field: a number in a range, a word of a set, or a list of page indices. */
    public static final class Field {
        final String name;
        final int min;
        final int max;
        final List<String> words;
        final boolean list;

        private Field(String name, int min, int max, List<String> words, boolean list) {
            this.name = name;
            this.min = min;
            this.max = max;
            this.words = words;
            this.list = list;
        }

        static Field num(String name, int min, int max) {
            return new Field(name, min, max, null, false);
        }

        /** A string of 1-{@code max} letters, each one of {@code letters}. */
        static Field letters(String name, String letters, int max) {
            return new Field(name, 1, max, Arrays.asList(letters), false);
        }

        static Field word(String name, String... words) {
            return new Field(name, 0, 0, Arrays.asList(words), false);
        }

        /** A list of up to {@code max} increasing page indices, each below {@code max}. */
        static Field list(String name, int max) {
            return new Field(name, 0, max, null, true);
        }

        /** The value if it has this field's shape (ranges of lists are the kind's to check), else a one-line error. */
        String check(String v) {
            if (words != null && min == 1) {
                String letters = words.get(0);
                if (v.isEmpty() || v.length() > max) {
                    throw KindRecipe.bad(name + " must be 1-" + max + " letters of " + letters + ", got '"
                            + SwarmRecipe.abbreviate(v) + "'");
                }
                for (int i = 0; i < v.length(); i++) {
                    if (letters.indexOf(v.charAt(i)) < 0) {
                        throw KindRecipe.bad(name + " must be 1-" + max + " letters of " + letters + ", got '"
                                + SwarmRecipe.abbreviate(v) + "'");
                    }
                }
                return v;
            }
            if (words != null) {
                if (!words.contains(v)) {
                    throw KindRecipe.bad(name + " must be one of " + Texts.join("|", words) + ", got '"
                            + SwarmRecipe.abbreviate(v) + "'");
                }
                return v;
            }
            if (list) {
                if (v.equals("-")) {
                    return v;
                }
                String[] parts = v.split(",", -1);
                if (parts.length > max) {
                    throw KindRecipe.bad(name + " lists more than " + max + " pages");
                }
                int last = -1;
                List<Integer> l = new ArrayList<>();
                for (String p : parts) {
                    int n = SwarmRecipe.parseSmall(p, name);
                    if (n <= last) {
                        throw KindRecipe.bad(name + " must list pages in increasing order without repeats");
                    }
                    last = n;
                    l.add(n);
                }
                return KindRecipe.listText(l);
            }
            int n = SwarmRecipe.parseSmall(v, name);
            if (n < min || n > max) {
                throw KindRecipe.bad(name + " must be " + min + "-" + max + ", got " + n);
            }
            return Integer.toString(n);
        }
    }

    /** Default execution budget of one recipe (see {@link SwarmWorlds#defaultBudget}). */
    long defaultBudget() {
        return 10_000;
    }

    /** The kind's word, first in its recipes' text. */
    public abstract String name();

    /** The head fields, in text order. */
    abstract List<Field> fields();

    /** Operation names, each mapped to whether it takes an argument. */
    abstract Map<String, Boolean> ops();

    /** An operation to show in error messages. */
    abstract String exampleOp();

    /** Throws a one-line IllegalArgumentException unless {@code r} is well-formed. */
    abstract void validate(KindRecipe r);

    /** The recipe of {@code seed} (well-formed by construction). */
    public abstract KindRecipe generate(long seed);

    /** The scenario of {@code r}, named {@code swarm:<r>}. */
    public abstract Scenario<?> scenario(KindRecipe r);

    /** A page list of {@code r} must name pages below {@code pages}. */
    static void pagesBelow(KindRecipe r, String field, int pages) {
        for (int p : r.list(field)) {
            if (p >= pages) {
                throw KindRecipe.bad(field + " names page " + p + " of " + pages);
            }
        }
    }
}
