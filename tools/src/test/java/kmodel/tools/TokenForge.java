package kmodel.tools;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes replay tokens byte by byte, independently of {@code ReplayToken}: {@link #seal} wraps
 * any bytes as a token whose checksum is valid, so that the decoder's checks behind the
 * checksum (lengths, counts, names, values) can be fed lies. The layout is the one
 * {@code ReplayToken} documents: {@code [version][u16 len][scenario][u16 len][config][varint
 * n][varint decision...]}.
 */
final class TokenForge {
    private final ByteArrayOutputStream raw = new ByteArrayOutputStream();

    TokenForge version(int v) {
        raw.write(v);
        return this;
    }

    /** A string as {@code writeUTF} writes it, with its true length. */
    TokenForge string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return string(b.length, b);
    }

    /** A string whose length field says {@code claimed} (a lie when it is not {@code b.length}). */
    TokenForge string(int claimed, byte[] b) {
        raw.write((claimed >>> 8) & 0xff);
        raw.write(claimed & 0xff);
        raw.write(b, 0, b.length);
        return this;
    }

    /** An unsigned varint of {@code v} (any 64-bit pattern, so also values no int holds). */
    TokenForge varint(long v) {
        long x = v;
        while ((x & ~0x7fL) != 0) {
            raw.write((int) ((x & 0x7f) | 0x80));
            x >>>= 7;
        }
        raw.write((int) x);
        return this;
    }

    TokenForge bytes(byte[] b) {
        raw.write(b, 0, b.length);
        return this;
    }

    byte[] raw() {
        return raw.toByteArray();
    }

    String seal() {
        return seal(raw());
    }

    /** {@code km1.<base64url(deflate(raw))>.<crc32(raw)>}: a token whose checksum fits {@code raw}. */
    static String seal(byte[] raw) {
        return seal(raw, new byte[0]);
    }

    /** {@link #seal(byte[])} with {@code trailer} appended after the end of the compressed stream. */
    static String seal(byte[] raw, byte[] trailer) {
        Deflater d = new Deflater();
        d.setInput(raw);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        out.write(trailer, 0, trailer.length);
        CRC32 crc = new CRC32();
        crc.update(raw);
        return "km1." + Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray()) + "."
                + String.format("%08x", crc.getValue());
    }
}
