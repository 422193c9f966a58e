package kmodel.verification.catalog;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.List;
import java.util.Map;
import kmodel.kernel.Kconfig;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.ViolationKind;

/**
 * One historical mistake that can be switched back into the model: what it re-creates, which
 * scenario exposes it and the violation the checker reports.
 */
public final class CatalogBug {
    private final String id;
    private final String origin;
    private final String scenario;
    private final ViolationKind kind;
    private final String signature;
    private final String description;
    private final ImmutableMap<KconfigOption, Long> implies;
    private final String memoryModel;
    private final ImmutableList<String> impliesBugs;

    CatalogBug(String id, String origin, String scenario, ViolationKind kind, String signature, String description,
            ImmutableMap<KconfigOption, Long> implies) {
        this(id, origin, scenario, kind, signature, description, implies, ImmutableList.of(), SC);
    }

    CatalogBug(String id, String origin, String scenario, ViolationKind kind, String signature, String description,
            ImmutableMap<KconfigOption, Long> implies, String memoryModel) {
        this(id, origin, scenario, kind, signature, description, implies, ImmutableList.of(), memoryModel);
    }

    CatalogBug(String id, String origin, String scenario, ViolationKind kind, String signature, String description,
            ImmutableMap<KconfigOption, Long> implies, ImmutableList<String> impliesBugs) {
        this(id, origin, scenario, kind, signature, description, implies, impliesBugs, SC);
    }

    CatalogBug(String id, String origin, String scenario, ViolationKind kind, String signature, String description,
            ImmutableMap<KconfigOption, Long> implies, ImmutableList<String> impliesBugs, String memoryModel) {
        this.impliesBugs = impliesBugs;
        this.id = id;
        this.origin = origin;
        this.scenario = scenario;
        this.kind = kind;
        this.signature = signature;
        this.description = description;
        this.implies = implies;
        this.memoryModel = memoryModel;
    }

    /** {@link #memoryModel()} of a bug the sequentially consistent search finds. */
    public static final String SC = "sc";
    /** {@link #memoryModel()} of a barrier bug: found only under the LKMM. */
    public static final String LKMM = "lkmm";

    /**
     * The memory model under which the checker finds this bug: {@link #SC} for every entry of
     * {@link BugCatalog#all()}; {@link #LKMM} for the barrier bugs of
     * {@link BugCatalog#barrierBugs()}, whose switch removes a barrier or weakens an ordering and
     * so changes nothing under sequential consistency.
     */
    public String memoryModel() {
        return memoryModel;
    }

    /** The id used with {@code --bug}. */
    public String id() {
        return id;
    }

    /** The kernel commit or posting it re-creates. */
    public String origin() {
        return origin;
    }

    /** The scenario that exposes it. */
    public String scenario() {
        return scenario;
    }

    /** The violation kind the checker reports. */
    public ViolationKind kind() {
        return kind;
    }

    /**
     * A distinctive part of the violation message the checker reports on {@link #scenario()}, so
     * that a test finds this bug and not merely some violation of the same kind (or, for
     * {@code bug-on}, some other check).
     */
    public String signature() {
        return signature;
    }

    /** One line on what the bug does. */
    public String description() {
        return description;
    }

    /** Options the bug needs (e.g. the v5.7 variant), applied with it. */
    public Map<KconfigOption, Long> implies() {
        return implies;
    }

    /**
     * Other catalog bugs the kernels this bug lived in had too, switched in with it (e.g. v5.10.0's
     * single {@code if} in {@code wait_on_page_writeback()} for a bug fixed before v5.10).
     */
    public List<String> impliesBugs() {
        return impliesBugs;
    }

    /**
     * {@code base} with the options this bug {@link #implies()} and the bugs it
     * {@linkplain #impliesBugs() implies}, but without the bug itself: the
     * configuration a test runs to show that the settings alone pass, so that a violation found
     * with the bug can only come from the bug.
     */
    public Kconfig impliedSettings(Kconfig base) {
        Kconfig c = base;
        for (Map.Entry<KconfigOption, Long> e : implies.entrySet()) {
            c = c.with(e.getKey(), e.getValue());
        }
        for (String b : impliesBugs) {
            c = c.withBug(b);
        }
        return c;
    }
}
