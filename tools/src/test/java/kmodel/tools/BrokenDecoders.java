package kmodel.tools;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import kmodel.explorer.search.Schedule;
import kmodel.explorer.trace.ReplayToken;

/**
 * Deliberately broken replay-token decoders, test-only, to show that the fuzz oracle
 * ({@link CliOracle}) catches the mistakes it is there for. Each fails the way a plausible
 * first version of the decoder would.
 */
final class BrokenDecoders {
    private BrokenDecoders() {
    }

    /**
     * Checks the checksum, then trusts the decision count: allocates {@code new int[n]} for the
     * count the token claims before reading a single decision.
     */
    static ReplayToken trustingTheCount(String token) {
        String[] parts = token.trim().split("\\.", -1);
        if (parts.length != 3 || !parts[0].equals("km1")) {
            throw new IllegalArgumentException("malformed replay token");
        }
        byte[] raw;
        try {
            raw = inflate(Base64.getUrlDecoder().decode(parts[1]));
        } catch (IllegalArgumentException | DataFormatException e) {
            throw new IllegalArgumentException("malformed replay token: damaged payload");
        }
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(raw);
        if (!String.format("%08x", crc.getValue()).equals(parts[2])) {
            throw new IllegalArgumentException("malformed replay token: checksum mismatch");
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(raw));
            in.readUnsignedByte();
            String scenario = in.readUTF();
            String config = in.readUTF();
            int n = readVarint(in);
            int[] d = new int[n]; // the mistake: n is what the token claims
            for (int i = 0; i < n; i++) {
                d[i] = readVarint(in);
            }
            return new ReplayToken(scenario, config, Schedule.of(d));
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed replay token: payload ends early");
        }
    }

    /** Splits the token and reads its three parts without checking that there are three. */
    static ReplayToken indexingUncheckedParts(String token) {
        String[] parts = token.split("\\.");
        String checksum = parts[2]; // the mistake: "garbage" has one part
        if (checksum.length() != 8) {
            throw new IllegalArgumentException("malformed replay token: bad checksum '" + checksum + "'");
        }
        return ReplayToken.decode(token);
    }

    private static byte[] inflate(byte[] deflated) throws DataFormatException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            while (!inf.finished()) {
                int n = inf.inflate(buf);
                if (n == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    throw new DataFormatException("truncated");
                }
                if (out.size() > (1 << 20)) {
                    throw new DataFormatException("too large");
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            inf.end();
        }
    }

    private static int readVarint(DataInputStream in) throws IOException {
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = in.readUnsignedByte();
            result |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IOException("varint too long");
    }
}
