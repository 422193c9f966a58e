package kmodel.verification.catalog;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.List;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.ViolationKind;

/**
 * The catalog of real (and textbook) bugs that can be switched back in with {@code --bug ID}.
 * Each entry names the scenario that exposes it and the kind the checker must report; a test
 * checks every entry (BugCatalogModelCheck).
 */
public final class BugCatalog {
    /** textbook: test the condition, then sleep without having set the task state first. */
    public static final String TEXTBOOK_CHECK_THEN_SLEEP = "textbook-check-then-sleep";
    /** textbook: one put_ too many. */
    public static final String TEXTBOOK_DOUBLE_PUT = "textbook-double-put";
    /** textbook: a get without its put. */
    public static final String TEXTBOOK_FORGOTTEN_PUT = "textbook-forgotten-put";
    /** textbook: schedule() with a spinlock held. */
    public static final String TEXTBOOK_SLEEP_HOLDING_SPINLOCK = "textbook-sleep-holding-spinlock";

    private BugCatalog() {
    }

    private static CatalogBug bug(String id, String origin, String scenario, ViolationKind kind, String description) {
        return new CatalogBug(id, origin, scenario, kind, description, ImmutableMap.of());
    }

    private static CatalogBug bug(String id, String origin, String scenario, ViolationKind kind, String description,
            KconfigOption opt, long value) {
        return new CatalogBug(id, origin, scenario, kind, description, ImmutableMap.of(opt, value));
    }

    /** Every catalog entry, in a stable order. */
    public static List<CatalogBug> all() {
        ImmutableList.Builder<CatalogBug> b = ImmutableList.builder();
        b.add(bug(TEXTBOOK_CHECK_THEN_SLEEP, "textbook (LDD3 ch. 6, \"the lost wakeup\")", "textbook-waitqueue",
                ViolationKind.MISSED_WAKEUP, "waiter tests the condition before prepare_to_wait(): the wake-up falls between"));
        b.add(bug(TEXTBOOK_DOUBLE_PUT, "textbook (Documentation/core-api/kref.rst)", "textbook-refcount",
                ViolationKind.DOUBLE_RELEASE, "a user drops its reference twice"));
        b.add(bug(TEXTBOOK_FORGOTTEN_PUT, "textbook (Documentation/core-api/kref.rst)", "textbook-refcount",
                ViolationKind.REF_LEAK, "a user takes a reference and never drops it"));
        b.add(bug(TEXTBOOK_SLEEP_HOLDING_SPINLOCK, "textbook (\"BUG: sleeping function called from invalid context\")",
                "textbook-refcount", ViolationKind.LOCK_LEAK, "the releaser waits for the last user with the lookup lock held"));
        return b.build();
    }

    /** The entry with {@code id}, or null. */
    public static CatalogBug find(String id) {
        for (CatalogBug b : all()) {
            if (b.id().equals(id)) {
                return b;
            }
        }
        return null;
    }
}
