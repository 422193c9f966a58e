package kmodel.kernel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The configuration an execution runs under: option values (seed patches applied or not, sizes)
 * and the catalog bugs switched back in. Immutable once built, so every execution of one
 * exploration sees the same configuration; the default has every seed patch applied and no bug.
 *
 * <p>Model code reads it through {@code Kernel.config()}: {@code config.enabled(OPTION)},
 * {@code config.value(OPTION)} and {@code config.bug("id")}.
 *
 * <p>A configuration may rest on a {@link KernelProfile} ({@code --kernel NAME}): an option not
 * set explicitly then takes the profile's value, and the profile's bugs are switched in. Without
 * one (replay tokens from before profiles, and the tests) the options' declared defaults apply.
 */
public final class Kconfig {
    private static final Kconfig DEFAULTS = new Kconfig(new TreeMap<>(), new TreeSet<>(), null, MemoryModel.SC);

    /** Options set explicitly, by name (sorted: the canonical form is stable). */
    private final TreeMap<String, Long> values;
    private final TreeSet<String> bugs;
    /** The kernel profile under the explicit settings, or null (the options' declared defaults). */
    private final KernelProfile profile;
    /** The memory model ({@code --memory-model}); {@link MemoryModel#SC} unless set. */
    private final MemoryModel memoryModel;

    private Kconfig(TreeMap<String, Long> values, TreeSet<String> bugs, KernelProfile profile, MemoryModel memoryModel) {
        this.values = values;
        this.bugs = bugs;
        this.profile = profile;
        this.memoryModel = memoryModel;
    }

    /** The memory model executions run under: {@link MemoryModel#SC} unless set ({@code --memory-model}). */
    public MemoryModel memoryModel() {
        return memoryModel;
    }

    /** A copy under memory model {@code m}, everything else kept. */
    public Kconfig withMemoryModel(MemoryModel m) {
        return new Kconfig(values, bugs, profile, m);
    }

    /** Every seed patch applied, no bug. */
    public static Kconfig defaults() {
        return DEFAULTS;
    }

    /** The value of an option: as set, else the profile's, else its declared default. */
    public long value(KconfigOption option) {
        Long v = values.get(option.name());
        if (v != null) {
            return v;
        }
        return profile != null ? profile.value(option) : option.defaultValue();
    }

    /** A bool option's value. */
    public boolean enabled(KconfigOption option) {
        return value(option) != 0;
    }

    /** Whether catalog bug {@code id} is switched back in (explicitly or by the profile). */
    public boolean bug(String id) {
        return (!bugs.isEmpty() && bugs.contains(id)) || (profile != null && profile.bugs().contains(id));
    }

    /** The kernel profile this configuration rests on, or null (the options' declared defaults). */
    public KernelProfile profile() {
        return profile;
    }

    /** A copy resting on {@code p} (null: on the options' declared defaults), explicit settings kept. */
    public Kconfig withProfile(KernelProfile p) {
        return new Kconfig(values, bugs, p, memoryModel);
    }

    /** The catalog bugs switched in explicitly ({@code --bug}), sorted; not the profile's. */
    public List<String> bugs() {
        return Collections.unmodifiableList(new ArrayList<>(bugs));
    }

    /** Options set explicitly, by name. */
    public Map<String, Long> overrides() {
        return Collections.unmodifiableMap(values);
    }

    /**
     * A copy with one option set. The value is kept even when it equals the default, so that an
     * explicit setting still overrides a scenario's own setting in {@link #overlay}.
     */
    public Kconfig with(KconfigOption option, long value) {
        TreeMap<String, Long> v = new TreeMap<>(values);
        v.put(option.name(), value);
        return new Kconfig(v, bugs, profile, memoryModel);
    }

    /**
     * This configuration with {@code top}'s explicit settings and bugs laid over it: how a
     * scenario's own settings (a small wait table, say) combine with the command line's. The
     * profile is {@code top}'s if it has one: a scenario's explicit settings stay above the
     * command line's profile, and the command line's explicit settings above both.
     */
    public Kconfig overlay(Kconfig top) {
        TreeMap<String, Long> v = new TreeMap<>(values);
        v.putAll(top.values);
        TreeSet<String> b = new TreeSet<>(bugs);
        b.addAll(top.bugs);
        return new Kconfig(v, b, top.profile != null ? top.profile : profile,
                top.memoryModel != MemoryModel.SC ? top.memoryModel : memoryModel);
    }

    /** A copy with a bool option set. */
    public Kconfig with(KconfigOption option, boolean on) {
        return with(option, on ? 1 : 0);
    }

    /** A copy with a catalog bug switched in. */
    public Kconfig withBug(String id) {
        TreeSet<String> b = new TreeSet<>(bugs);
        b.add(id);
        return new Kconfig(values, b, profile, memoryModel);
    }

    /**
     * Canonical text, e.g. {@code kernel=v5.10.y,memory-model=lkmm,PAGE_WAIT_TABLE_SIZE=2,bug=x}:
     * the profile first (none before profiles existed, so old replay tokens read as they did),
     * then the memory model unless it is {@code sc} (so every {@code sc} text is as it was), then
     * the explicit settings; empty for the declared defaults.
     */
    public String canonical() {
        StringBuilder sb = new StringBuilder();
        if (profile != null) {
            sb.append("kernel=").append(profile.name());
        }
        if (memoryModel != MemoryModel.SC) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append("memory-model=").append(memoryModel.label());
        }
        for (Map.Entry<String, Long> e : values.entrySet()) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(e.getKey()).append('=').append(e.getValue());
        }
        for (String b : bugs) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append("bug=").append(b);
        }
        return sb.toString();
    }

    /** Builds a configuration from raw name/value pairs (already validated by the caller). */
    public static Kconfig of(Map<String, Long> overrides, Iterable<String> bugIds) {
        TreeMap<String, Long> v = new TreeMap<>(overrides);
        TreeSet<String> b = new TreeSet<>();
        for (String id : bugIds) {
            b.add(id);
        }
        return new Kconfig(v, b, null, MemoryModel.SC);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Kconfig && ((Kconfig) o).values.equals(values) && ((Kconfig) o).bugs.equals(bugs)
                && java.util.Objects.equals(((Kconfig) o).profile, profile) && ((Kconfig) o).memoryModel == memoryModel;
    }

    @Override
    public int hashCode() {
        return ((values.hashCode() * 31 + bugs.hashCode()) * 31 + java.util.Objects.hashCode(profile)) * 31
                + memoryModel.ordinal();
    }

    @Override
    public String toString() {
        String c = canonical();
        return c.isEmpty() ? "defaults" : c;
    }
}
