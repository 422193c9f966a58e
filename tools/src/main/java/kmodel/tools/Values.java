package kmodel.tools;

import java.util.Locale;
import picocli.CommandLine;

/**
 * How every option value and parameter of {@code kmodel} is read, one rule for all:
 *
 * <ul>
 *   <li>A value is taken exactly as written: white space around it is not trimmed away but
 *       refused, and a number or keyword holds none inside either ({@code --jobs ' 2'} and
 *       {@code --shard '0 /2'} alike).</li>
 *   <li>A number is ASCII decimal digits, with a leading {@code -} for a negative one: no
 *       {@code +}, no {@code 0x}, no {@code _}, no exponent, no other script's digits, and it
 *       must fit its type; whether it is in range is then each option's own check.</li>
 *   <li>A keyword ({@code pct}, {@code unbounded}, {@code small}, ...) is matched ignoring case.</li>
 * </ul>
 * {@link #register} installs the converters for every {@code int}, {@code long},
 * {@code Integer}, {@code Long}, {@code String} and {@code Path} option and parameter of the
 * command line (a new option gets them without saying so); options with a converter of their own read their parts through
 * {@link #asWritten}, {@link #wholeNumber} and {@link #keyword}. The fuzzing
 * ({@code CliFuzzProperties}) checks the rule on every option.
 */
final class Values {
    private Values() {
    }

    /** The number converters, for every command of {@code cmd} (call after the subcommands are added). */
    static void register(CommandLine cmd) {
        IntConverter ints = new IntConverter();
        LongConverter longs = new LongConverter();
        cmd.registerConverter(Integer.class, ints);
        cmd.registerConverter(int.class, ints);
        cmd.registerConverter(Long.class, longs);
        cmd.registerConverter(long.class, longs);
        cmd.registerConverter(String.class, Values::unpadded);
        cmd.registerConverter(java.nio.file.Path.class, v -> {
            try {
                return java.nio.file.Paths.get(unpadded(v));
            } catch (java.nio.file.InvalidPathException e) {
                throw new CommandLine.TypeConversionException("not a path: " + e.getReason() + ", got '" + v + "'");
            }
        });
    }

    /**
     * {@code value}, refused when white space begins or ends it (a name, a file, a token, an
     * assignment, a command: white space inside may belong to it, around it never does).
     */
    static String unpadded(String value) {
        if (!value.isEmpty() && (blank(value.charAt(0)) || blank(value.charAt(value.length() - 1)))) {
            throw new CommandLine.TypeConversionException("white space around '" + value + "' (values are taken as "
                    + "written, nothing is trimmed)");
        }
        return value;
    }

    private static boolean blank(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    /** {@code value}, refused when it holds white space (or nothing) where {@code expected} was asked for. */
    static String asWritten(String value, String expected) {
        if (value.isEmpty()) {
            throw new CommandLine.TypeConversionException("expected " + expected + ", got ''");
        }
        for (int i = 0; i < value.length(); i++) {
            if (blank(value.charAt(i))) {
                throw new CommandLine.TypeConversionException("expected " + expected + " (without spaces), got '"
                        + value + "'");
            }
        }
        return value;
    }

    /**
     * {@code value} as a whole number in {@code [min, max]} (the type's limits, not the option's
     * range): ASCII digits with an optional leading {@code -}; {@code expected} says what was
     * asked for in the error.
     */
    static long wholeNumber(String value, long min, long max, String expected) {
        asWritten(value, expected);
        int start = value.charAt(0) == '-' ? 1 : 0;
        boolean digits = value.length() > start && value.length() - start <= 19;
        for (int i = start; digits && i < value.length(); i++) {
            char c = value.charAt(i);
            digits = c >= '0' && c <= '9';
        }
        if (digits) {
            try {
                long n = Long.parseLong(value);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // beyond a long: reported below
            }
        }
        throw new CommandLine.TypeConversionException("expected " + expected + ", got '" + value + "'");
    }

    /** The one of {@code choices} that {@code value} names, ignoring case; else an error naming them. */
    static String keyword(String value, String... choices) {
        for (String c : choices) {
            if (c.equalsIgnoreCase(value)) {
                return c;
            }
        }
        throw new CommandLine.TypeConversionException("expected " + String.join(", ", choices).replaceFirst(", ([^,]*)$",
                " or $1") + ", got '" + value + "'");
    }

    /** {@code int} and {@code Integer} values. */
    static final class IntConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) wholeNumber(value, Integer.MIN_VALUE, Integer.MAX_VALUE, "a whole number from "
                    + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE + " (decimal digits)");
        }
    }

    /** {@code long} and {@code Long} values. */
    static final class LongConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return wholeNumber(value, Long.MIN_VALUE, Long.MAX_VALUE, "a whole number from " + Long.MIN_VALUE + " to "
                    + Long.MAX_VALUE + " (decimal digits)");
        }
    }

    /** Lower case, as keywords are printed. */
    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
