package kmodel.verification.trace;

import com.google.common.hash.Hashing;
import com.google.common.io.BaseEncoding;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import kmodel.verification.explore.Schedule;

/**
 * A replay token: scenario, configuration and schedule, with a checksum.
 *
 * <p>Form: {@code km1.<payload>.<crc>} where payload is the base64url of the deflated bytes
 * {@code [version][scenario][config][n][decision...]} (strings in modified UTF-8, numbers as
 * unsigned varints) and crc is the CRC-32 of the undeflated bytes, in hex. Decoding checks the
 * prefix, the encoding and the checksum before anything is run, and fails with one line saying
 * what is wrong.
 */
public final class ReplayToken {
    private static final String PREFIX = "km1";
    private static final int VERSION = 1;

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

    /** Decodes {@code token}, or throws {@link MalformedTokenException} with a one-line reason. */
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
            throw new MalformedTokenException("malformed replay token: payload is not base64url (" + e.getMessage() + ")");
        }
        byte[] raw;
        try {
            Inflater inf = new Inflater();
            inf.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    inf.end();
                    throw new MalformedTokenException("malformed replay token: payload is truncated");
                }
                out.write(buf, 0, n);
                if (out.size() > (1 << 26)) {
                    inf.end();
                    throw new MalformedTokenException("malformed replay token: payload too large");
                }
            }
            inf.end();
            raw = out.toByteArray();
        } catch (DataFormatException e) {
            throw new MalformedTokenException("malformed replay token: payload is damaged (" + e.getMessage() + ")");
        }
        String crc = String.format("%08x", Hashing.crc32().hashBytes(raw).asInt());
        if (!crc.equals(parts[2])) {
            throw new MalformedTokenException("malformed replay token: checksum mismatch (expected " + crc + ", token says '"
                    + abbreviate(parts[2]) + "'): it was damaged or truncated");
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(raw));
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new MalformedTokenException("replay token version " + version + " is not supported (this kmodel reads "
                        + VERSION + ")");
            }
            String scenario = in.readUTF();
            String config = in.readUTF();
            int n = readVarint(in);
            int[] d = new int[n];
            for (int i = 0; i < n; i++) {
                d[i] = readVarint(in);
            }
            if (in.available() != 0) {
                throw new MalformedTokenException("malformed replay token: trailing bytes after the schedule");
            }
            return new ReplayToken(scenario, config, Schedule.of(d));
        } catch (IOException e) {
            throw new MalformedTokenException("malformed replay token: payload ends early");
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 24 ? s : s.substring(0, 24) + "...";
    }

    private static void writeVarint(DataOutputStream out, int v) throws IOException {
        int x = v;
        while ((x & ~0x7f) != 0) {
            out.writeByte((x & 0x7f) | 0x80);
            x >>>= 7;
        }
        out.writeByte(x);
    }

    private static int readVarint(DataInputStream in) throws IOException {
        int shift = 0;
        int result = 0;
        while (shift < 35) {
            int b = in.readUnsignedByte();
            result |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                if (result < 0) {
                    throw new MalformedTokenException("malformed replay token: negative number in the schedule");
                }
                return result;
            }
            shift += 7;
        }
        throw new MalformedTokenException("malformed replay token: number too long in the schedule");
    }
}
