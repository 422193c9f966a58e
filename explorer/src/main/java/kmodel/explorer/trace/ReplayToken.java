package kmodel.explorer.trace;

import com.google.common.hash.Hashing;
import com.google.common.io.BaseEncoding;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import kmodel.explorer.search.Schedule;

/**
 * A replay token: scenario, configuration and schedule, with a checksum.
 *
 * <p>Form: {@code km1.<payload>.<crc>} where payload is the base64url of the deflated bytes
 * {@code [version][scenario][config][n][decision...]} (strings in modified UTF-8, numbers as
 * unsigned varints) and crc is the CRC-32 of the undeflated bytes, in hex. Decoding checks the
 * prefix, the encoding and the checksum before anything is run, and fails with one line saying
 * what is wrong. The decoder is hardened against hostile input (fuzzed by {@code
 * ReplayTokenFuzzProperties} and the CLI's {@code CliFuzzProperties}): see {@link #decode}.
 */
public final class ReplayToken {
    private static final String PREFIX = "km1";
    private static final int VERSION = 1;
    /**
     * The most bytes a payload may inflate to: 1 MiB, some 200,000 decisions and more, far
     * beyond what a replay at the default step bound can use.
     */
    public static final int MAX_RAW_BYTES = 1 << 20;

    private final String scenario;
    private final String config;
    private final Schedule schedule;

    public ReplayToken(String scenario, String config, Schedule schedule) {
        this.scenario = scenario;
        this.config = config;
        this.schedule = schedule;
    }

    public String scenario() {
        return scenario;
    }

    /** The configuration in {@code Kconfig.canonical()} form. */
    public String config() {
        return config;
    }

    public Schedule schedule() {
        return schedule;
    }

    /** A malformed token: the message is the one line to print. */
    public static final class MalformedTokenException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        MalformedTokenException(String message) {
            super(message);
        }
    }

    /** Encodes the token. */
    public String encode() {
        byte[] raw = rawBytes();
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
        d.setInput(raw);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!d.finished()) {
            int n = d.deflate(buf);
            out.write(buf, 0, n);
        }
        d.end();
        String crc = String.format("%08x", Hashing.crc32().hashBytes(raw).asInt());
        return PREFIX + "." + BaseEncoding.base64Url().omitPadding().encode(out.toByteArray()) + "." + crc;
    }

    private byte[] rawBytes() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(VERSION);
            out.writeUTF(scenario);
            out.writeUTF(config);
            writeVarint(out, schedule.size());
            for (int i = 0; i < schedule.size(); i++) {
                writeVarint(out, schedule.get(i));
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Decodes {@code token}, or throws {@link MalformedTokenException} with a one-line reason.
     *
     * <p>Nothing the token claims is trusted before it is checked: the payload is inflated to at
     * most {@link #MAX_RAW_BYTES} bytes (a decompression bomb is refused, not expanded), every
     * length and count is checked against the bytes that actually follow before anything is
     * allocated for it, and the bytes must be exactly what {@link #encode()} writes for the
     * decoded contents (no trailing bytes, no overlong numbers, no second spelling of a token).
     */
    public static ReplayToken decode(String token) {
        String t = token.trim();
        String[] parts = t.split("\\.", -1);
        if (parts.length != 3 || !parts[0].equals(PREFIX)) {
            throw new MalformedTokenException("malformed replay token: expected km1.<payload>.<checksum>, got '"
                    + abbreviate(t) + "'");
        }
        byte[] deflated;
        try {
            deflated = BaseEncoding.base64Url().omitPadding().decode(parts[1]);
        } catch (IllegalArgumentException e) {
            throw new MalformedTokenException("malformed replay token: payload is not base64url");
        }
        byte[] raw = inflate(deflated);
        String crc = String.format("%08x", Hashing.crc32().hashBytes(raw).asInt());
        if (!crc.equals(parts[2])) {
            throw new MalformedTokenException("malformed replay token: checksum mismatch (expected " + crc + ", token says '"
                    + abbreviate(parts[2]) + "'): it was damaged or truncated");
        }
        Reader in = new Reader(raw);
        int version = in.readByte("the version");
        if (version != VERSION) {
            throw new MalformedTokenException("replay token version " + version + " is not supported (this kmodel reads "
                    + VERSION + ")");
        }
        String scenario = in.readName("the scenario name");
        String config = in.readName("the configuration");
        int n = in.readVarint("the number of decisions");
        // Every decision takes at least one byte: a count larger than the bytes left is a lie,
        // refused before the array is allocated.
        if (n > in.remaining()) {
            throw new MalformedTokenException("malformed replay token: it claims " + n + " decisions but only "
                    + in.remaining() + " bytes follow");
        }
        int[] d = new int[n];
        for (int i = 0; i < n; i++) {
            d[i] = in.readVarint("decision " + i);
        }
        if (in.remaining() != 0) {
            throw new MalformedTokenException("malformed replay token: " + in.remaining()
                    + " trailing bytes after the schedule");
        }
        ReplayToken decoded = new ReplayToken(scenario, config, Schedule.of(d));
        if (!Arrays.equals(decoded.rawBytes(), raw)) {
            throw new MalformedTokenException("malformed replay token: not in the form kmodel writes (an overlong number"
                    + " or string encoding)");
        }
        return decoded;
    }

    /**
     * Inflates the payload, refusing more than {@link #MAX_RAW_BYTES} bytes of output (checked
     * before each write, so at most that much is ever held) and bytes after the end of the
     * compressed stream.
     */
    private static byte[] inflate(byte[] deflated) {
        Inflater inf = new Inflater();
        try {
            inf.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new MalformedTokenException("malformed replay token: payload is truncated");
                }
                if (out.size() + n > MAX_RAW_BYTES) {
                    throw new MalformedTokenException("malformed replay token: payload inflates to more than "
                            + MAX_RAW_BYTES + " bytes");
                }
                out.write(buf, 0, n);
            }
            if (inf.getRemaining() != 0) {
                throw new MalformedTokenException("malformed replay token: " + inf.getRemaining()
                        + " bytes after the end of the compressed payload");
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new MalformedTokenException("malformed replay token: payload is damaged (not deflate data)");
        } finally {
            inf.end();
        }
    }

    /** Reads the undeflated bytes with every length checked against what is left. */
    private static final class Reader {
        private final byte[] b;
        private int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        int remaining() {
            return b.length - pos;
        }

        int readByte(String what) {
            if (pos >= b.length) {
                throw new MalformedTokenException("malformed replay token: payload ends before " + what);
            }
            return b[pos++] & 0xff;
        }

        /** A {@link DataOutputStream#writeUTF} string of printable ASCII (names and settings are). */
        String readName(String what) {
            int len = (readByte(what) << 8) | readByte(what);
            if (len > remaining()) {
                throw new MalformedTokenException("malformed replay token: " + what + " claims " + len
                        + " bytes but only " + remaining() + " follow");
            }
            StringBuilder sb = new StringBuilder(len);
            for (int i = 0; i < len; i++) {
                int c = b[pos++] & 0xff;
                if (c < 0x20 || c > 0x7e) {
                    throw new MalformedTokenException("malformed replay token: " + what
                            + " holds a byte that is not printable ASCII (0x" + Integer.toHexString(c) + ")");
                }
                sb.append((char) c);
            }
            return sb.toString();
        }

        /** An unsigned varint of at most 31 bits (at most five bytes). */
        int readVarint(String what) {
            long result = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                int x = readByte(what);
                result |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) {
                    if (result > Integer.MAX_VALUE) {
                        throw new MalformedTokenException("malformed replay token: " + what + " is out of range ("
                                + result + ")");
                    }
                    return (int) result;
                }
            }
            throw new MalformedTokenException("malformed replay token: " + what + " is a number longer than five bytes");
        }
    }

    /** At most 24 characters of {@code s}, for a message; anything but printable ASCII is escaped (backslash-u). */
    private static String abbreviate(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 24; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c <= 0x7e) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04x", (int) c));
            }
        }
        return s.length() <= 24 ? sb.toString() : sb + "...";
    }

    private static void writeVarint(DataOutputStream out, int v) throws IOException {
        int x = v;
        while ((x & ~0x7f) != 0) {
            out.writeByte((x & 0x7f) | 0x80);
            x >>>= 7;
        }
        out.writeByte(x);
    }
}
