package kmodel.verification.world;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Scenarios by name, in registration order: what a group of scenarios registers into
 * ({@code TextbookScenarios.registerAll} and the like). The project's registry,
 * {@code kmodel.verification.ScenarioRegistry}, is one; a free-running harness builds a small one
 * of its own, so that what JPF loads stays clear of the explorer and the catalog.
 */
public class ScenarioSet {
    private final LinkedHashMap<String, Scenario<?>> byName = new LinkedHashMap<>();

    /** Registers {@code s}; names must be unique. */
    public ScenarioSet register(Scenario<?> s) {
        if (byName.putIfAbsent(s.name(), s) != null) {
            throw new IllegalArgumentException("duplicate scenario " + s.name());
        }
        return this;
    }

    /** The scenario registered as {@code name}, or null. */
    public Scenario<?> find(String name) {
        return byName.get(name);
    }

    /** The scenario named {@code name} ({@link #find}); IllegalArgumentException when unknown. */
    public Scenario<?> get(String name) {
        Scenario<?> s = find(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown scenario '" + name + "' (see: kmodel scenarios)");
        }
        return s;
    }

    /** All scenarios in registration order. */
    public List<Scenario<?>> all() {
        return Collections.unmodifiableList(new ArrayList<>(byName.values()));
    }
}
