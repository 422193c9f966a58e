package kmodel.explorer;

import kmodel.kernel.Kconfig;

/**
 * What a replay token may name ({@link ModelCheck#replay(String, Targets, boolean)}): the targets
 * by name, and the configurations by their canonical text ({@link Kconfig#canonical()}). The
 * explorer does not know the options of the model's modules; whoever registers the targets does.
 */
public interface Targets {
    /** The target named {@code name}, or null. */
    CheckTarget find(String name);

    /**
     * Parses a token's configuration: its canonical text back into a {@link Kconfig}.
     *
     * @throws IllegalArgumentException with a one-line message on an unknown option or bug, a bad
     *     value or text not in canonical form
     */
    Kconfig parseConfig(String canonical);
}
