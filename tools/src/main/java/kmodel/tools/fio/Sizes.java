package kmodel.tools.fio;

import java.util.Locale;

/**
 * Numbers with size suffixes, as fio and xfs_io read them. Each parser returns -1 for text that
 * is not a number of its form, and {@link #TOO_LARGE} for a number above {@code Long.MAX_VALUE}
 * bytes; callers compare the result with their own cap.
 */
final class Sizes {
    /** A number too large to hold. */
    static final long TOO_LARGE = -2;

    private Sizes() {
    }

    /**
     * fio's {@code str_to_decimal()} and {@code get_mult_bytes()} (parse.c) with fio's default
     * {@code kb_base=1024}: decimal digits, or {@code 0x} and hex digits without a suffix, then an
     * optional suffix, case-insensitive: {@code b}; {@code k}/{@code kb} 1024, {@code m}/{@code mb}
     * 1024², {@code g}, {@code t}, {@code p} likewise; and fio's quirk: {@code kib}, {@code mib},
     * {@code gib}, {@code tib}, {@code pib} are powers of 1000 under {@code kb_base=1024} ("the
     * unit prefixes are opposite from those specified in the SI and IEC 80000-13 standards", fio's
     * HOWTO). Stricter than fio, which reads {@code 1.5g} as 1 and {@code 3x} as 3: only these
     * spellings are numbers here.
     */
    static long fio(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        if (t.startsWith("0x")) {
            String hex = t.substring(2);
            if (hex.isEmpty() || hex.length() > 16 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128)) {
                return -1;
            }
            if (hex.length() == 16 && Character.digit(hex.charAt(0), 16) >= 8) {
                return TOO_LARGE;
            }
            return Long.parseUnsignedLong(hex, 16);
        }
        int i = 0;
        while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
            i++;
        }
        if (i == 0) {
            return -1;
        }
        String suffix = t.substring(i);
        int pow;
        long mult = 1024;
        switch (suffix) {
            case "": case "b":
                pow = 0;
                break;
            case "k": case "kb":
                pow = 1;
                break;
            case "m": case "mb":
                pow = 2;
                break;
            case "g": case "gb":
                pow = 3;
                break;
            case "t": case "tb":
                pow = 4;
                break;
            case "p": case "pb":
                pow = 5;
                break;
            case "kib":
                pow = 1;
                mult = 1000;
                break;
            case "mib":
                pow = 2;
                mult = 1000;
                break;
            case "gib":
                pow = 3;
                mult = 1000;
                break;
            case "tib":
                pow = 4;
                mult = 1000;
                break;
            case "pib":
                pow = 5;
                mult = 1000;
                break;
            default:
                return -1;
        }
        return scaled(t.substring(0, i), 10, pow, mult);
    }

    /** Whether {@code text} ends in one of fio's {@code kib}-style suffixes (powers of 1000 under kb_base=1024). */
    static boolean fioIecSuffix(String text) {
        return text.toLowerCase(Locale.ROOT).matches(".*[0-9][kmgtp]ib");
    }

    /**
     * xfs_io's {@code cvtnum()} (libfrog/convert.c): {@code strtoll(s, &sp, 0)} (decimal, {@code
     * 0x} hex, a leading {@code 0} octal) and at most one suffix character, case-insensitive:
     * {@code b} the file system block (4096 here), {@code s} the sector (512), {@code k}, {@code
     * m}, {@code g}, {@code t}, {@code p}, {@code e} powers of 1024. No sign and no blanks (xfs_io
     * takes a sign; a negative offset or length is an error there too).
     */
    static long xfsIo(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        int radix = 10;
        int start = 0;
        if (t.startsWith("0x")) {
            radix = 16;
            start = 2;
        } else if (t.startsWith("0") && t.length() > 1 && Character.isDigit(t.charAt(1))) {
            radix = 8;
            start = 1;
        }
        int i = start;
        while (i < t.length() && t.charAt(i) < 128 && Character.digit(t.charAt(i), radix) >= 0) {
            i++;
        }
        if (i == start && !(t.startsWith("0") && start == 1)) {
            return -1;
        }
        String suffix = t.substring(i);
        long mult;
        int pow = 1;
        switch (suffix) {
            case "":
                mult = 1;
                break;
            case "b":
                mult = 4096;
                break;
            case "s":
                mult = 512;
                break;
            case "k":
                mult = 1024;
                break;
            case "m":
                mult = 1024;
                pow = 2;
                break;
            case "g":
                mult = 1024;
                pow = 3;
                break;
            case "t":
                mult = 1024;
                pow = 4;
                break;
            case "p":
                mult = 1024;
                pow = 5;
                break;
            case "e":
                mult = 1024;
                pow = 6;
                break;
            default:
                return -1;
        }
        return scaled(i == start ? "0" : t.substring(start, i), radix, pow, mult);
    }

    private static long scaled(String digits, int radix, int pow, long mult) {
        String d = digits.replaceFirst("^0+(?=.)", "");
        if (d.length() > 22) {
            return TOO_LARGE;
        }
        long v;
        try {
            v = Long.parseLong(d, radix);
            for (int k = 0; k < pow; k++) {
                v = Math.multiplyExact(v, mult);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            return TOO_LARGE;
        }
        return v;
    }

    /** {@code bytes} in the largest binary unit that divides it: {@code 2000MiB}, {@code 32KiB}, {@code 1000B}. */
    static String binary(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int u = 0;
        long v = bytes;
        while (v != 0 && v % 1024 == 0 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return v + units[u];
    }
}
