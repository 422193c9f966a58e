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
 */
public final class Kconfig {
    private static final Kconfig DEFAULTS = new Kconfig(new TreeMap<>(), new TreeSet<>());

    /** Options set explicitly, by name (sorted: the canonical form is stable). */
    private final TreeMap<String, Long> values;
    private final TreeSet<String> bugs;

    private Kconfig(TreeMap<String, Long> values, TreeSet<String> bugs) {
        this.values = values;
        this.bugs = bugs;
    }

    /** Every seed patch applied, no bug. */
    public static Kconfig defaults() {
        return DEFAULTS;
    }

    /** The value of an option (its default unless set). */
    public long value(KconfigOption option) {
        Long v = values.get(option.name());
        return v != null ? v : option.defaultValue();
    }

    /** A bool option's value. */
    public boolean enabled(KconfigOption option) {
        return value(option) != 0;
    }

    /** Whether catalog bug {@code id} is switched back in. */
    public boolean bug(String id) {
        return !bugs.isEmpty() && bugs.contains(id);
    }

    /** The catalog bugs switched in, sorted. */
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
        return new Kconfig(v, bugs);
    }

    /**
     * This configuration with {@code top}'s explicit settings and bugs laid over it: how a
     * scenario's own settings (a small wait table, say) combine with the command line's.
     */
    public Kconfig overlay(Kconfig top) {
        TreeMap<String, Long> v = new TreeMap<>(values);
        v.putAll(top.values);
        TreeSet<String> b = new TreeSet<>(bugs);
        b.addAll(top.bugs);
        return new Kconfig(v, b);
    }

    /** A copy with a bool option set. */
    public Kconfig with(KconfigOption option, boolean on) {
        return with(option, on ? 1 : 0);
    }

    /** A copy with a catalog bug switched in. */
    public Kconfig withBug(String id) {
        TreeSet<String> b = new TreeSet<>(bugs);
        b.add(id);
        return new Kconfig(values, b);
    }

    /** Canonical text, e.g. {@code PAGE_WAIT_TABLE_SIZE=2,bug=x}; empty for the defaults. */
    public String canonical() {
        StringBuilder sb = new StringBuilder();
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
        return new Kconfig(v, b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Kconfig && ((Kconfig) o).values.equals(values) && ((Kconfig) o).bugs.equals(bugs);
    }

    @Override
    public int hashCode() {
        return values.hashCode() * 31 + bugs.hashCode();
    }

    @Override
    public String toString() {
        String c = canonical();
        return c.isEmpty() ? "defaults" : c;
    }
}
