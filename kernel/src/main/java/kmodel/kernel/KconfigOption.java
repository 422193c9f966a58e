package kmodel.kernel;

/**
 * One Kconfig-like switch: a seed patch applied or not, or a size. Options are declared as
 * constants by the module whose code reads them and collected by the verification module's
 * option table; the CLI's {@code --set NAME=VALUE} names them (with or without
 * {@code CONFIG_}).
 */
public final class KconfigOption {
    /** bool (y/n) or int. */
    public enum Type {
        /** y or n. */
        BOOL,
        /** A decimal integer within [min, max]. */
        INT
    }

    private final String name;
    private final Type type;
    private final long defaultValue;
    private final long min;
    private final long max;
    private final String help;

    private KconfigOption(String name, Type type, long defaultValue, long min, long max, String help) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.help = help;
    }

    /** A y/n switch. */
    public static KconfigOption bool(String name, boolean def, String help) {
        return new KconfigOption(name, Type.BOOL, def ? 1 : 0, 0, 1, help);
    }

    /** An integer option with its allowed range. */
    public static KconfigOption integer(String name, long def, long min, long max, String help) {
        return new KconfigOption(name, Type.INT, def, min, max, help);
    }

    public String name() {
        return name;
    }

    public Type type() {
        return type;
    }

    public long defaultValue() {
        return defaultValue;
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    public String help() {
        return help;
    }

    /** Renders a value the way {@code --set} takes it. */
    public String format(long value) {
        return type == Type.BOOL ? (value != 0 ? "y" : "n") : Long.toString(value);
    }

    /**
     * Parses a {@code --set} value; throws {@link IllegalArgumentException} with a one-line
     * message naming the option when it does not fit.
     */
    public long parse(String text) {
        if (type == Type.BOOL) {
            switch (text) {
                case "y": case "yes": case "true": case "1": return 1;
                case "n": case "no": case "false": case "0": return 0;
                default:
                    throw new IllegalArgumentException(name + " is a bool option: expected y or n, got '" + text + "'");
            }
        }
        long v;
        try {
            v = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is an int option: '" + text + "' is not a number");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + v);
        }
        return v;
    }

    @Override
    public String toString() {
        return name;
    }
}
