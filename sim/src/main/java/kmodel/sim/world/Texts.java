package kmodel.sim.world;

/**
 * Text helpers for scenario outcomes that run under Java PathFinder too: JPF fails on
 * {@code String.join} and {@code Collectors.joining} (DESIGN.md), so scenarios join by hand.
 */
public final class Texts {
    private Texts() {
    }

    /** {@code String.join(sep, parts)}, written out. */
    public static String join(String sep, Iterable<String> parts) {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (String p : parts) {
            if (!first) {
                sb.append(sep);
            }
            sb.append(p);
            first = false;
        }
        return sb.toString();
    }

    /** {@code String.join(sep, parts)}, written out. */
    public static String join(String sep, String... parts) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                sb.append(sep);
            }
            sb.append(parts[i]);
        }
        return sb.toString();
    }
}
