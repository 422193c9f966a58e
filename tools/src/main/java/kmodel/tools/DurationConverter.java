package kmodel.tools;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses a duration such as {@code 30s}, {@code 5m}, {@code 1h}, {@code 1h30m} or {@code 500ms}:
 * one or more numbers each followed by a unit ({@code ms}, {@code s}, {@code m}, {@code h},
 * {@code d}), more than zero in total and at most {@value #MAX_DAYS} days.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    static final long MAX_DAYS = 366;
    private static final Pattern WHOLE = Pattern.compile("(?:\\d{1,9}(?:ms|s|m|h|d))+");
    private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    @Override
    public Duration convert(String value) {
        Duration d = parse(value);
        if (d == null) {
            throw new CommandLine.TypeConversionException("expected a duration such as 30s, 5m, 1h or 1h30m, got '"
                    + value + "'");
        }
        if (d.isZero()) {
            throw new CommandLine.TypeConversionException("expected a duration of more than 0, got '" + value + "'");
        }
        if (d.compareTo(Duration.ofDays(MAX_DAYS)) > 0) {
            throw new CommandLine.TypeConversionException("expected a duration of at most " + MAX_DAYS + " days, got '"
                    + value + "'");
        }
        return d;
    }

    /** The duration, or null when {@code value} is not one. Never overflows: parts are at most 9 digits. */
    static Duration parse(String value) {
        String v = value; // as written (Values): no white space
        if (v.length() > 64 || !WHOLE.matcher(v).matches()) {
            return null;
        }
        Duration d = Duration.ZERO;
        Matcher m = PART.matcher(v);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2)) {
                case "ms":
                    d = d.plusMillis(n);
                    break;
                case "s":
                    d = d.plusSeconds(n);
                    break;
                case "m":
                    d = d.plusMinutes(n);
                    break;
                case "h":
                    d = d.plusHours(n);
                    break;
                default:
                    d = d.plusDays(n);
                    break;
            }
        }
        return d;
    }
}
