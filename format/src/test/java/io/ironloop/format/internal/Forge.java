package io.ironloop.format.internal;

import io.ironloop.format.Checkpoints;
import io.ironloop.format.Codec;
import io.ironloop.format.ElementType;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.Scope;
import io.ironloop.format.WriterOptions;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * Builds files with valid CRCs around arbitrary headers, payloads and manifests, so that tests reach
 * the checks behind the checksums: what a malicious (rather than damaged) file looks like.
 */
final class Forge {
    static final String NAME = "forged/rank-0.ilc";

    /** A valid file's parts. */
    record Parts(byte[] payload, String json) {
    }

    private Forge() {
    }

    /** A valid file: entry "a" (600 random doubles, 2 chunks), "b" (2000 zero bytes), "c" (smooth doubles, zstd). */
    static byte[] valid() {
        Map<EntryHeader, ByteBuffer> entries = new LinkedHashMap<>();
        entries.put(new EntryHeader("a", ElementType.DOUBLE, new long[] {600}, Scope.LOCAL, Codec.NONE),
                Checkpoints.randomBytes(new Random(1), 4800));
        entries.put(new EntryHeader("b", ElementType.BYTE, new long[] {2000}, Scope.GLOBAL, Codec.NONE), ByteBuffer.allocate(2000));
        entries.put(new EntryHeader("c", ElementType.DOUBLE, new long[] {16, 32}, Scope.LOCAL, Codec.ZSTD),
                Checkpoints.smoothDoubles(16, 32));
        return Checkpoints.write(NAME, new WriterOptions(4096, 3, true), null, entries).bytes();
    }

    static Parts split(byte[] file) {
        ByteBuffer trailer = ByteBuffer.wrap(file, file.length - Layout.TRAILER_SIZE, Layout.TRAILER_SIZE).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        int offset = (int) trailer.getLong(Layout.T_MANIFEST_OFFSET);
        int length = (int) trailer.getLong(Layout.T_MANIFEST_LENGTH);
        return new Parts(Arrays.copyOfRange(file, Layout.PAYLOAD_START, offset),
                new String(file, offset, length, StandardCharsets.UTF_8));
    }

    static byte[] file(FileHeader header, byte[] payload, String json) {
        return file(header, payload, json.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] file(FileHeader header, byte[] payload, byte[] manifest) {
        CRC32C crc = new CRC32C();
        crc.update(manifest);
        long manifestOffset = Layout.PAYLOAD_START + payload.length;
        ByteBuffer out = ByteBuffer.allocate(Layout.HEADER_SIZE + payload.length + manifest.length + Layout.TRAILER_SIZE);
        out.put(header.encode()).put(payload).put(manifest)
                .put(new FileTrailer(manifestOffset, manifest.length, (int) crc.getValue()).encode());
        return out.array();
    }

    /** The valid file with its manifest replaced by {@code json}. */
    static byte[] withManifest(String json) {
        return file(FileHeader.CURRENT, split(valid()).payload(), json);
    }

    /** The valid file's manifest. */
    static String manifest() {
        return split(valid()).json();
    }
}
