package kmodel.verification.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every bug the model can switch back in is in the catalog, so that {@code --bug} reaches it and
 * BugCatalogModelCheck shows it caught. The model's bug ids are gathered, not listed here: every
 * class of a model module whose name ends in {@code Bugs} ({@code FilemapBugs}, {@code BlockBugs},
 * and those of modules to come) declares its ids as {@code public static final String} constants
 * and returns them all from {@code all()}.
 */
class ModelBugListsTest {
    /** The model modules' packages, as in ModelRulesArchTest. */
    private static final String[] MODEL_PACKAGES = {"kmodel.kernel", "kmodel.mm", "kmodel.block", "kmodel.fs",
        "kmodel.iouring"};

    /** Bug-list class -> its id constants, sorted. */
    private static final TreeMap<String, TreeSet<String>> CONSTANTS = new TreeMap<>();
    /** Bug-list class -> what its all() returns, in order. */
    private static final TreeMap<String, List<String>> LISTS = new TreeMap<>();

    @BeforeAll
    static void gatherTheModelsBugLists() throws ReflectiveOperationException {
        for (JavaClass jc : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(MODEL_PACKAGES)) {
            if (!jc.getSimpleName().endsWith("Bugs") || jc.isNestedClass()) {
                continue;
            }
            Class<?> c = Class.forName(jc.getName());
            TreeSet<String> ids = new TreeSet<>();
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                boolean constant = Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m);
                if (constant && f.getType() == String.class) {
                    ids.add((String) f.get(null));
                }
            }
            CONSTANTS.put(c.getName(), ids);
            Method all = c.getMethod("all");
            LISTS.put(c.getName(), new ArrayList<>(Arrays.asList((String[]) all.invoke(null))));
        }
    }

    @Test
    void theGatheringFindsTheKnownBugListsAndTheirIds() {
        assertTrue(CONSTANTS.containsKey("kmodel.mm.FilemapBugs"), CONSTANTS::toString);
        assertTrue(CONSTANTS.containsKey("kmodel.block.BlockBugs"), CONSTANTS::toString);
        assertTrue(CONSTANTS.get("kmodel.mm.FilemapBugs").contains("async-lock-not-trylock"), CONSTANTS::toString);
        assertTrue(CONSTANTS.get("kmodel.block.BlockBugs").contains("bio-split-advances-sector-only"), CONSTANTS::toString);
        assertTrue(CONSTANTS.get("kmodel.fs.btrfs.BtrfsBugs").contains("btrfs-clone-first-bvec"), CONSTANTS::toString);
    }

    @Test
    void everyBugListsAllIsExactlyItsIdConstantsWithoutRepeats() {
        for (String c : CONSTANTS.keySet()) {
            List<String> all = LISTS.get(c);
            assertEquals(all.size(), new TreeSet<>(all).size(), () -> c + ".all() repeats an id: " + all);
            assertEquals(CONSTANTS.get(c), new TreeSet<>(all), () -> c + ".all() and its constants differ");
        }
    }

    @Test
    void everyBugIdOfTheModelIsInTheCatalog() {
        List<String> missing = new ArrayList<>();
        for (String c : CONSTANTS.keySet()) {
            TreeSet<String> ids = new TreeSet<>(CONSTANTS.get(c));
            ids.addAll(LISTS.get(c));
            for (String id : ids) {
                if (BugCatalog.find(id) == null) {
                    missing.add(c + ": " + id);
                }
            }
        }
        assertEquals(List.of(), missing, "model bug ids missing from BugCatalog.all()");
    }

    @Test
    void everyCatalogBugIsAModelBugOrATextbookOne() throws ReflectiveOperationException {
        TreeSet<String> known = new TreeSet<>();
        for (TreeSet<String> ids : CONSTANTS.values()) {
            known.addAll(ids);
        }
        for (Field f : BugCatalog.class.getDeclaredFields()) {
            if (f.getName().startsWith("TEXTBOOK_") && f.getType() == String.class) {
                known.add((String) f.get(null));
            }
        }
        List<String> unknown = new ArrayList<>();
        for (CatalogBug b : BugCatalog.all()) {
            if (!known.contains(b.id())) {
                unknown.add(b.id());
            }
        }
        assertEquals(List.of(), unknown, "catalog ids that no model bug list or textbook constant declares");
    }
}
