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
    private final ImmutableList<String> impliesBugs;

    CatalogBug(String id, String origin, String scenario, ViolationKind kind, String signature, String description,
            ImmutableMap<KconfigOption, Long> implies) {
        this(id, origin, scenario, kind, signature, description, implies, ImmutableList.of());
    }

    CatalogBug(String id, String origin, String scenario, ViolationKind kind, String signature, String description,
            ImmutableMap<KconfigOption, Long> implies, ImmutableList<String> impliesBugs) {
        this.impliesBugs = impliesBugs;
        this.id = id;
        this.origin = origin;
        this.scenario = scenario;
        this.kind = kind;
        this.signature = signature;
        this.description = description;
        this.implies = implies;
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
