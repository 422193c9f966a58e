package kmodel.verification.harness;

import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_CHECK_THEN_SLEEP;
import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_DOUBLE_PUT;
import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_FORGOTTEN_PUT;
import static kmodel.verification.catalog.BugCatalog.TEXTBOOK_SLEEP_HOLDING_SPINLOCK;

import kmodel.kernel.Kconfig;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.ViolationKind;
import kmodel.mm.FilemapBugs;
import kmodel.mm.MmOptions;

/**
 * The free-running harnesses, each a registered scenario of a few tasks under one base
 * configuration, with the catalog bugs its scenario hosts:
 *
 * <table>
 *   <caption>harnesses</caption>
 *   <tr><th>harness</th><th>subsystem</th><th>scenario, settings</th><th>hosted bugs</th></tr>
 *   <tr><td>{@code textbook-waitqueue}</td><td>textbook</td><td>textbook-waitqueue (3 tasks)</td>
 *       <td>textbook-check-then-sleep</td></tr>
 *   <tr><td>{@code textbook-refcount}</td><td>textbook</td><td>textbook-refcount (3 tasks)</td>
 *       <td>textbook-double-put, textbook-forgotten-put, textbook-sleep-holding-spinlock</td></tr>
 *   <tr><td>{@code page-lock-killable}</td><td>page lock v5.10</td><td>page-lock-killable (4 tasks,
 *       its own {@code PAGE_LOCK_UNFAIRNESS=0})</td><td>handoff-forgets-done</td></tr>
 *   <tr><td>{@code page-lock-stealer}</td><td>page lock v5.10</td><td>page-lock-stealer (3 tasks,
 *       {@code PAGE_LOCK_UNFAIRNESS=1})</td><td>none</td></tr>
 *   <tr><td>{@code async-page-lock}</td><td>async page wait</td><td>async-page-lock (an IOCB_WAITQ-style
 *       waiter, an unlocker, writeback end: 3 tasks)</td><td>async-lock-not-trylock, async-page-match-not-set</td></tr>
 *   <tr><td>{@code page-lock-killable-v57}</td><td>page wait v5.7</td><td>page-lock-killable with
 *       {@code PAGE_WAIT_V57=y}</td><td>exclusive-wait-signal-first</td></tr>
 *   <tr><td>{@code page-lock-killable-v510-unfair}</td><td>page lock v5.10</td><td>page-lock-killable at
 *       the kernel's default {@code PAGE_LOCK_UNFAIRNESS=5}: the model's finding, which fails
 *       (missed wake-up, a deadlock to JPF and Lincheck)</td><td>none</td></tr>
 * </table>
 *
 * Built on every call (no static state). The bug ids are the catalog's compile-time constants;
 * the kinds and settings are copied from the catalog as plain data, and {@code HarnessesTest}
 * checks them against it.
 */
public final class Harnesses {
    /** The kernel's default {@code page_lock_unfairness} (mm/filemap.c v5.10). */
    static final long DEFAULT_PAGE_LOCK_UNFAIRNESS = 5;

    private Harnesses() {
    }

    private static final KconfigOption[] NONE = {};
    private static final long[] NO_VALUES = {};

    private static Harness.Bug bug(String id, ViolationKind kind) {
        return new Harness.Bug(id, kind, NONE, NO_VALUES);
    }

    private static Harness.Bug bug(String id, ViolationKind kind, KconfigOption option, long value) {
        return new Harness.Bug(id, kind, new KconfigOption[] {option}, new long[] {value});
    }

    /** Every harness, in a stable order. */
    public static Harness[] all() {
        Kconfig d = Kconfig.defaults();
        return new Harness[] {
            new Harness("textbook-waitqueue", "textbook", "textbook-waitqueue", d,
                    new Harness.Bug[] {bug(TEXTBOOK_CHECK_THEN_SLEEP, ViolationKind.MISSED_WAKEUP)}, null),
            new Harness("textbook-refcount", "textbook", "textbook-refcount", d,
                    new Harness.Bug[] {
                        bug(TEXTBOOK_DOUBLE_PUT, ViolationKind.DOUBLE_RELEASE),
                        bug(TEXTBOOK_FORGOTTEN_PUT, ViolationKind.REF_LEAK),
                        bug(TEXTBOOK_SLEEP_HOLDING_SPINLOCK, ViolationKind.LOCK_LEAK)}, null),
            new Harness("page-lock-killable", "page lock v5.10", "page-lock-killable", d,
                    new Harness.Bug[] {
                        bug(FilemapBugs.HANDOFF_FORGETS_DONE, ViolationKind.MISSED_WAKEUP, MmOptions.PAGE_LOCK_UNFAIRNESS, 0)},
                    null),
            new Harness("page-lock-stealer", "page lock v5.10", "page-lock-stealer", d, new Harness.Bug[0], null),
            new Harness("async-page-lock", "async page wait", "async-page-lock", d,
                    new Harness.Bug[] {
                        bug(FilemapBugs.ASYNC_LOCK_NOT_TRYLOCK, ViolationKind.BUG_ON),
                        bug(FilemapBugs.ASYNC_PAGE_MATCH_NOT_SET, ViolationKind.MISSED_WAKEUP)}, null),
            new Harness("page-lock-killable-v57", "page wait v5.7", "page-lock-killable",
                    d.with(MmOptions.PAGE_WAIT_V57, true),
                    new Harness.Bug[] {
                        bug(FilemapBugs.EXCLUSIVE_WAIT_SIGNAL_FIRST, ViolationKind.MISSED_WAKEUP, MmOptions.PAGE_WAIT_V57, 1)},
                    null),
            new Harness("page-lock-killable-v510-unfair", "page lock v5.10", "page-lock-killable",
                    d.with(MmOptions.PAGE_LOCK_UNFAIRNESS, DEFAULT_PAGE_LOCK_UNFAIRNESS), new Harness.Bug[0],
                    ViolationKind.MISSED_WAKEUP),
        };
    }

    /** The harness named {@code name}; IllegalArgumentException when unknown. */
    public static Harness named(String name) {
        for (Harness h : all()) {
            if (h.name().equals(name)) {
                return h;
            }
        }
        throw new IllegalArgumentException("unknown harness '" + name + "'");
    }
}
