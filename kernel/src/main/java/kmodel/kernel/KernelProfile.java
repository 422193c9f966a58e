package kmodel.kernel;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A kernel version as a configuration: the value of every option as that kernel had it, and the
 * catalog bugs that kernel still had (a bug entry that undoes a later fix is that kernel's own
 * form). A {@link Kconfig} built on a profile reads an option from its explicit settings first,
 * then from the profile, then from the option's declared default.
 *
 * <p>The profiles themselves are defined by the verification module ({@code Profiles}), which
 * knows every module's options; this class only carries one. Immutable; a plain class, not a
 * record (model packages have none: see DESIGN.md).
 */
public final class KernelProfile {
    private final String name;
    private final String release;
    private final String summary;
    private final Map<String, Long> values;
    private final Set<String> bugs;

    /**
     * @param name the name {@code --kernel} takes and replay tokens carry (e.g. {@code v5.10})
     * @param release the release whose sources the profile follows, as Elixir names its tags
     *     (e.g. {@code v5.10.13}); the version of the profile's code references
     * @param summary one line: what the profile is
     * @param values every option's value, by option name
     * @param bugs the catalog bugs the kernel had
     */
    public KernelProfile(String name, String release, String summary, Map<String, Long> values, Set<String> bugs) {
        this.name = name;
        this.release = release;
        this.summary = summary;
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
        this.bugs = Collections.unmodifiableSet(new TreeSet<>(bugs));
    }

    /** The name {@code --kernel} takes and replay tokens carry. */
    public String name() {
        return name;
    }

    /** The release whose sources the profile follows, as Elixir names its tags. */
    public String release() {
        return release;
    }

    /** One line: what the profile is. */
    public String summary() {
        return summary;
    }

    /** Every option's value, by option name, sorted. */
    public Map<String, Long> values() {
        return values;
    }

    /** The catalog bugs the kernel had, sorted. */
    public Set<String> bugs() {
        return bugs;
    }

    /** The profile's value of {@code option}, or its declared default if the profile has none. */
    public long value(KconfigOption option) {
        Long v = values.get(option.name());
        return v != null ? v : option.defaultValue();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KernelProfile && ((KernelProfile) o).name.equals(name) && ((KernelProfile) o).values.equals(values)
                && ((KernelProfile) o).bugs.equals(bugs);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
