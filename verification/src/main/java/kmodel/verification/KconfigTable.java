package kmodel.verification;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import kmodel.kernel.Kconfig;
import kmodel.kernel.KconfigOption;
import kmodel.kernel.KernelProfile;
import kmodel.kernel.KernelOptions;
import kmodel.block.BlockOptions;
import kmodel.fs.btrfs.BtrfsOptions;
import kmodel.iouring.IoUringOptions;
import kmodel.mm.MmOptions;
import kmodel.verification.catalog.BugCatalog;
import kmodel.verification.catalog.CatalogBug;

/**
 * Every Kconfig option of every module, and the parsing of {@code --set NAME=VALUE} and
 * {@code --bug ID} into a {@link Kconfig}. Errors are one line naming what is wrong.
 */
public final class KconfigTable {
    private KconfigTable() {
    }

    /** All options, module by module. */
    public static List<KconfigOption> options() {
        ImmutableList.Builder<KconfigOption> b = ImmutableList.builder();
        b.add(KernelOptions.all());
        b.add(MmOptions.all());
        b.add(BlockOptions.all());
        b.add(BtrfsOptions.all());
        b.add(IoUringOptions.all());
        return b.build();
    }

    /** The option named {@code name} (with or without {@code CONFIG_}), or null. */
    public static KconfigOption find(String name) {
        String n = name.startsWith("CONFIG_") ? name.substring("CONFIG_".length()) : name;
        for (KconfigOption o : options()) {
            if (o.name().equals(n)) {
                return o;
            }
        }
        return null;
    }

    /**
     * Builds a configuration from {@code --set} assignments and {@code --bug} ids. A bug implies
     * the settings it needs (e.g. the v5.7 page wait variant); an explicit {@code --set} wins.
     *
     * @throws IllegalArgumentException with a one-line message on an unknown option, a bad
     *     value, a malformed assignment or an unknown bug id
     */
    public static Kconfig build(List<String> sets, List<String> bugIds) {
        return build(null, sets, bugIds);
    }

    /**
     * {@link #build(List, List)} on kernel profile {@code kernel} ({@code --kernel NAME}; null: no
     * profile, the options' declared defaults): the profile's values and bugs, with the bugs'
     * implied settings and the {@code --set} assignments over them.
     *
     * @throws IllegalArgumentException with a one-line message on an unknown profile, and as
     *     {@link #build(List, List)}
     */
    public static Kconfig build(String kernel, List<String> sets, List<String> bugIds) {
        Kconfig c = kernel == null ? Kconfig.defaults() : Kconfig.defaults().withProfile(Profiles.get(kernel));
        for (String id : bugIds) {
            CatalogBug bug = BugCatalog.find(id);
            if (bug == null) {
                throw new IllegalArgumentException("unknown bug '" + id + "' (see: kmodel bugs)");
            }
            c = bug.impliedSettings(c).withBug(id);
        }
        for (String s : sets) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--set expects NAME=VALUE, got '" + s + "'");
            }
            String name = s.substring(0, eq).trim();
            KconfigOption o = find(name);
            if (o == null) {
                throw new IllegalArgumentException("--set: unknown option '" + name + "' (known: " + names() + ")");
            }
            c = c.with(o, o.parse(s.substring(eq + 1).trim()));
        }
        return c;
    }

    /**
     * Parses {@code Kconfig.canonical()} text back (replay tokens): the profile known (a token
     * without {@code kernel=}, as every token before profiles, has none: the declared defaults, as
     * it had), every option known and in range, every bug in the catalog, and the text exactly the
     * canonical form of the result.
     */
    public static Kconfig parseCanonical(String text) {
        List<String> bugs = new ArrayList<>();
        TreeMap<String, Long> values = new TreeMap<>();
        KernelProfile profile = null;
        kmodel.kernel.MemoryModel memoryModel = kmodel.kernel.MemoryModel.SC;
        if (!text.isEmpty()) {
            for (String part : text.split(",")) {
                if (part.startsWith("memory-model=")) {
                    // Written once, after kernel=, by Kconfig.canonical(); the check below refuses any other place.
                    memoryModel = kmodel.kernel.MemoryModel.of(part.substring("memory-model=".length()));
                    if (memoryModel == null) {
                        throw new IllegalArgumentException("replay token names unknown memory model '"
                                + part.substring("memory-model=".length()) + "' (known: sc, lkmm)");
                    }
                    continue;
                }
                if (part.startsWith("kernel=")) {
                    // Written first, once, by Kconfig.canonical(); the check below refuses any other place.
                    profile = Profiles.find(part.substring("kernel=".length()));
                    if (profile == null) {
                        throw new IllegalArgumentException("replay token names unknown kernel profile '"
                                + part.substring("kernel=".length()) + "' (known: " + Profiles.names() + ")");
                    }
                    continue;
                }
                if (part.startsWith("bug=")) {
                    String id = part.substring(4);
                    if (BugCatalog.find(id) == null && !ablation(id)) {
                        throw new IllegalArgumentException("replay token names unknown bug '" + id + "'");
                    }
                    bugs.add(id);
                    continue;
                }
                int eq = part.indexOf('=');
                KconfigOption o = eq > 0 ? find(part.substring(0, eq)) : null;
                if (o == null) {
                    throw new IllegalArgumentException("replay token names unknown option '" + part + "'");
                }
                long v;
                try {
                    v = Long.parseLong(part.substring(eq + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("replay token has a bad value in '" + part + "'");
                }
                if (v < o.min() || v > o.max()) {
                    throw new IllegalArgumentException("replay token has an out-of-range value in '" + part + "'");
                }
                values.put(o.name(), v);
            }
        }
        Kconfig c = Kconfig.of(values, bugs).withProfile(profile).withMemoryModel(memoryModel);
        // Tokens are written from Kconfig.canonical(): any other spelling (a repeated or
        // unsorted entry, a CONFIG_ prefix, a leading zero) did not come from kmodel.
        if (!c.canonical().equals(text)) {
            throw new IllegalArgumentException("replay token's configuration is not in canonical form (expected '"
                    + c.canonical() + "')");
        }
        return c;
    }

    private static String names() {
        StringBuilder sb = new StringBuilder();
        for (KconfigOption o : options()) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(o.name());
        }
        return sb.toString();
    }

    /**
     * Whether {@code id} is a barrier ablation ({@code no-barrier:smp_mb@io_cqring_ev_posted},
     * written by {@code ./kmodel barriers}): a replay token may carry one as it carries a bug.
     */
    static boolean ablation(String id) {
        return id.matches(java.util.regex.Pattern.quote(kmodel.kernel.lkmm.Fence.ABLATE_PREFIX) + "[a-z_]+@[A-Za-z0-9_]+");
    }
}
