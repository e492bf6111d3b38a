package io.ironloop.format.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.Codec;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.ElementType;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.FileMeta;
import io.ironloop.format.Manifest;
import io.ironloop.format.Scope;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Parses manifest JSON as hostile input: a streaming parser with limits on document size, nesting,
 * string and number lengths; every field type- and range-checked as it is read; counts bounded before
 * anything is sized by them. Fields may come in any order; unknown fields (from newer minor versions)
 * are skipped. Every failure is a {@link CorruptCheckpointException} naming the file and the byte
 * offset of the offending JSON token.
 */
public final class ManifestParser {
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
    private final JsonParser p;
    private final String file;
    private final long base;
    private int totalChunks;

    private ManifestParser(JsonParser p, String file, long base) {
        this.p = p;
        this.file = file;
        this.base = base;
    }

    /**
     * Parses a manifest.
     *
     * @param json the manifest bytes (already CRC-checked)
     * @param file the file's name for messages
     * @param base the manifest's offset in the file, added to JSON offsets in messages
     */
    public static ParsedManifest parse(byte[] json, String file, long base) {
        checkPlainUtf8(json, file, base);
        try (JsonParser p = ManifestJson.FACTORY.createParser(json)) {
            return new ManifestParser(p, file, base).document();
        } catch (IOException e) {
            long at = e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null
                    ? Math.max(0, j.getLocation().getByteOffset()) : 0;
            throw new CorruptCheckpointException(file, base + at, "manifest is not valid JSON within limits: "
                    + e.getClass().getSimpleName(), e);
        } catch (CorruptCheckpointException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CorruptCheckpointException(file, base, "manifest cannot be parsed: " + e, e);
        }
    }

    /**
     * A manifest is UTF-8 without a byte-order mark. JSON's grammar never allows a raw NUL byte (inside strings
     * it must be escaped), so rejecting NUL also rejects UTF-16 and UTF-32, which Jackson would otherwise
     * detect and accept, as it would skip a BOM.
     */
    private static void checkPlainUtf8(byte[] json, String file, long base) {
        if (json.length >= 3 && (json[0] & 0xFF) == 0xEF && (json[1] & 0xFF) == 0xBB && (json[2] & 0xFF) == 0xBF) {
            throw new CorruptCheckpointException(file, base, "manifest starts with a byte-order mark; manifests are UTF-8 without one");
        }
        for (int i = 0; i < json.length; i++) {
            if (json[i] == 0) {
                throw new CorruptCheckpointException(file, base + i, "manifest holds a NUL byte: it is not UTF-8 JSON");
            }
        }
    }

    private ParsedManifest document() throws IOException {
        expect(p.nextToken(), JsonToken.START_OBJECT, "the manifest");
        String format = null;
        String writerVersion = null;
        String fileName = null;
        long major = -1;
        long minor = -1;
        long chunkSize = -1;
        long paddingCrc = -1;
        FileMeta meta = null;
        Entries entries = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case ManifestJson.F_FORMAT -> format = text(field, Layout.MAX_NAME_CHARS, false);
                case ManifestJson.F_FORMAT_VERSION -> major = integer(field, 0, 0xFFFF);
                case ManifestJson.F_FORMAT_MINOR -> minor = integer(field, 0, 0xFFFF);
                case ManifestJson.F_WRITER_VERSION -> writerVersion = text(field, Layout.MAX_NAME_CHARS, false);
                case ManifestJson.F_FILE -> fileName = text(field, Layout.MAX_NAME_CHARS, false);
                case ManifestJson.F_CHUNK_SIZE -> chunkSize = integer(field, Layout.MIN_CHUNK_SIZE, Layout.MAX_CHUNK_SIZE);
                case ManifestJson.F_META -> meta = meta();
                case ManifestJson.F_ENTRIES -> entries = entries();
                case ManifestJson.F_PADDING_CRC -> paddingCrc = integer(field, 0, 0xFFFF_FFFFL);
                default -> p.skipChildren();
            }
        }
        expect(p.currentToken(), JsonToken.END_OBJECT, "the manifest");
        if (p.nextToken() != null) {
            throw bad("data after the manifest object");
        }
        require(format, ManifestJson.F_FORMAT);
        if (!ManifestJson.FORMAT_NAME.equals(format)) {
            throw bad("format is not '" + ManifestJson.FORMAT_NAME + "'");
        }
        require(major < 0 ? null : major, ManifestJson.F_FORMAT_VERSION);
        require(minor < 0 ? null : minor, ManifestJson.F_FORMAT_MINOR);
        require(writerVersion, ManifestJson.F_WRITER_VERSION);
        require(fileName, ManifestJson.F_FILE);
        require(chunkSize < 0 ? null : chunkSize, ManifestJson.F_CHUNK_SIZE);
        require(meta, ManifestJson.F_META);
        require(entries, ManifestJson.F_ENTRIES);
        require(paddingCrc < 0 ? null : paddingCrc, ManifestJson.F_PADDING_CRC);
        Manifest manifest = new Manifest((int) major, writerVersion, meta, entries.list, fileName);
        return new ParsedManifest(manifest, chunkSize, (int) minor, entries.entryAt(), entries.chunkAt.toArray(long[][]::new),
                (int) paddingCrc);
    }

    private FileMeta meta() throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, ManifestJson.F_META);
        long metaAt = at();
        String job = null;
        String settings = null;
        Instant created = null;
        Map<String, String> attributes = null;
        long iteration = -1;
        long rank = -1;
        long worldSize = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case ManifestJson.M_JOB -> job = text(field, Layout.MAX_TEXT_CHARS, false);
                case ManifestJson.M_ITERATION -> iteration = integer(field, 0, Long.MAX_VALUE);
                case ManifestJson.M_RANK -> rank = integer(field, 0, Integer.MAX_VALUE);
                case ManifestJson.M_WORLD_SIZE -> worldSize = integer(field, 1, Integer.MAX_VALUE);
                case ManifestJson.M_SETTINGS -> settings = text(field, Layout.MAX_TEXT_CHARS, false);
                case ManifestJson.M_CREATED -> created = instant(field);
                case ManifestJson.M_ATTRIBUTES -> attributes = attributes();
                default -> p.skipChildren();
            }
        }
        require(job, ManifestJson.M_JOB);
        require(iteration < 0 ? null : iteration, ManifestJson.M_ITERATION);
        require(rank < 0 ? null : rank, ManifestJson.M_RANK);
        require(worldSize < 0 ? null : worldSize, ManifestJson.M_WORLD_SIZE);
        require(settings, ManifestJson.M_SETTINGS);
        require(created, ManifestJson.M_CREATED);
        require(attributes, ManifestJson.M_ATTRIBUTES);
        try {
            return new FileMeta(job, iteration, (int) rank, (int) worldSize, settings, created, attributes);
        } catch (IllegalArgumentException e) {
            throw new CorruptCheckpointException(file, base + metaAt, "manifest: " + e.getMessage(), e);
        }
    }

    private Map<String, String> attributes() throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, ManifestJson.M_ATTRIBUTES);
        Map<String, String> map = new HashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            if (map.size() >= Layout.MAX_ATTRIBUTES) {
                throw bad("more than " + Layout.MAX_ATTRIBUTES + " attributes");
            }
            String key = p.currentName();
            p.nextToken();
            map.put(key, text("attribute", Layout.MAX_TEXT_CHARS, false));
        }
        return map;
    }

    private Entries entries() throws IOException {
        expect(p.currentToken(), JsonToken.START_ARRAY, ManifestJson.F_ENTRIES);
        Entries entries = new Entries();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (entries.list.size() >= Layout.MAX_ENTRIES) {
                throw bad("more than " + Layout.MAX_ENTRIES + " entries");
            }
            entries.entryAt.add(base + at());
            entry(entries);
        }
        return entries;
    }

    private void entry(Entries into) throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, "an entry");
        long entryAt = at();
        String name = null;
        ElementType type = null;
        long[] shape = null;
        Scope scope = null;
        Codec codec = null;
        long byteLength = -1;
        List<ChunkDescriptor> chunks = null;
        long[] chunkAt = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case ManifestJson.E_NAME -> name = text(field, Layout.MAX_NAME_CHARS, false);
                case ManifestJson.E_TYPE -> type = enumValue(field, ElementType.class);
                case ManifestJson.E_SHAPE -> shape = shape();
                case ManifestJson.E_SCOPE -> scope = enumValue(field, Scope.class);
                case ManifestJson.E_CODEC -> codec = enumValue(field, Codec.class);
                case ManifestJson.E_BYTE_LENGTH -> byteLength = integer(field, 0, Long.MAX_VALUE);
                case ManifestJson.E_CHUNKS -> {
                    chunks = new ArrayList<>();
                    chunkAt = chunks(chunks);
                }
                default -> p.skipChildren();
            }
        }
        require(name, ManifestJson.E_NAME);
        require(type, ManifestJson.E_TYPE);
        require(shape, ManifestJson.E_SHAPE);
        require(scope, ManifestJson.E_SCOPE);
        require(codec, ManifestJson.E_CODEC);
        require(byteLength < 0 ? null : byteLength, ManifestJson.E_BYTE_LENGTH);
        require(chunks, ManifestJson.E_CHUNKS);
        EntryHeader header;
        try {
            header = new EntryHeader(name, type, shape, scope, codec);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new CorruptCheckpointException(file, base + entryAt, "manifest: entry '" + StoreNames.printable(name)
                    + "' is invalid: " + e.getMessage(), e);
        }
        if (header.byteLength() != byteLength) {
            throw new CorruptCheckpointException(file, base + entryAt, "manifest: entry '" + StoreNames.printable(name)
                    + "' records byteLength " + byteLength + " but its shape and type make " + header.byteLength());
        }
        into.list.add(new EntryDescriptor(header, chunks));
        into.chunkAt.add(chunkAt);
    }

    private long[] shape() throws IOException {
        expect(p.currentToken(), JsonToken.START_ARRAY, ManifestJson.E_SHAPE);
        long[] dims = new long[Layout.MAX_DIMENSIONS];
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n == dims.length) {
                throw bad("shape has more than " + Layout.MAX_DIMENSIONS + " dimensions");
            }
            dims[n++] = integer("dimension", 0, Long.MAX_VALUE);
        }
        return java.util.Arrays.copyOf(dims, n);
    }

    private long[] chunks(List<ChunkDescriptor> into) throws IOException {
        expect(p.currentToken(), JsonToken.START_ARRAY, ManifestJson.E_CHUNKS);
        long[] where = new long[16];
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (++totalChunks > Layout.MAX_CHUNKS) {
                throw bad("more than " + Layout.MAX_CHUNKS + " chunks in the file");
            }
            if (into.size() == where.length) {
                where = java.util.Arrays.copyOf(where, where.length * 2);
            }
            where[into.size()] = base + at();
            into.add(chunk());
        }
        return java.util.Arrays.copyOf(where, into.size());
    }

    private ChunkDescriptor chunk() throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, "a chunk");
        long index = -1;
        long raw = -1;
        long offset = Long.MIN_VALUE;
        long stored = -1;
        long crc = -1;
        String ref = null;
        String hash = null;
        Codec codec = null;
        Boolean shuffled = null;
        Boolean zero = null;
        boolean sawFile = false;
        boolean sawHash = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case ManifestJson.C_INDEX -> index = integer(field, 0, Layout.MAX_CHUNKS);
                case ManifestJson.C_RAW_LENGTH -> raw = integer(field, 0, Layout.MAX_CHUNK_SIZE);
                case ManifestJson.C_FILE -> {
                    ref = text(field, Layout.MAX_NAME_CHARS, true);
                    sawFile = true;
                }
                case ManifestJson.C_OFFSET -> offset = integer(field, -1, Long.MAX_VALUE);
                case ManifestJson.C_STORED_LENGTH -> stored = integer(field, 0, Layout.MAX_CHUNK_SIZE);
                case ManifestJson.C_CODEC -> codec = enumValue(field, Codec.class);
                case ManifestJson.C_SHUFFLED -> shuffled = bool(field);
                case ManifestJson.C_ZERO -> zero = bool(field);
                case ManifestJson.C_CRC -> crc = integer(field, 0, 0xFFFF_FFFFL);
                case ManifestJson.C_HASH -> {
                    hash = text(field, 64, true);
                    if (hash != null && !HASH.matcher(hash).matches()) {
                        throw bad("hash is not 64 lowercase hex digits");
                    }
                    sawHash = true;
                }
                default -> p.skipChildren();
            }
        }
        require(index < 0 ? null : index, ManifestJson.C_INDEX);
        require(raw < 0 ? null : raw, ManifestJson.C_RAW_LENGTH);
        require(sawFile ? "" : null, ManifestJson.C_FILE);
        require(offset == Long.MIN_VALUE ? null : offset, ManifestJson.C_OFFSET);
        require(stored < 0 ? null : stored, ManifestJson.C_STORED_LENGTH);
        require(codec, ManifestJson.C_CODEC);
        require(shuffled, ManifestJson.C_SHUFFLED);
        require(zero, ManifestJson.C_ZERO);
        require(crc < 0 ? null : crc, ManifestJson.C_CRC);
        require(sawHash ? "" : null, ManifestJson.C_HASH);
        return new ChunkDescriptor((int) index, raw, ref, offset, stored, codec, shuffled, zero, (int) crc, hash);
    }

    private long integer(String field, long min, long max) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw bad(field + " is not an integer in range");
        }
        long v = p.getLongValue();
        if (v < min || v > max) {
            throw bad(field + " = " + v + " is outside " + min + ".." + max);
        }
        return v;
    }

    private String text(String field, int maxChars, boolean nullable) throws IOException {
        if (nullable && p.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw bad(field + " is not a string");
        }
        String s = p.getText();
        if (s.length() > maxChars) {
            throw bad(field + " is longer than " + maxChars + " characters");
        }
        return s;
    }

    private boolean bool(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
            throw bad(field + " is not a boolean");
        }
        return t == JsonToken.VALUE_TRUE;
    }

    private <E extends Enum<E>> E enumValue(String field, Class<E> type) throws IOException {
        String s = text(field, 64, false);
        try {
            return Enum.valueOf(type, s);
        } catch (IllegalArgumentException e) {
            throw bad(field + " '" + StoreNames.printable(s) + "' is not one of " + java.util.Arrays.toString(type.getEnumConstants()));
        }
    }

    private Instant instant(String field) throws IOException {
        String s = text(field, 64, false);
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw new CorruptCheckpointException(file, base + at(), "manifest: " + field + " is not an ISO-8601 instant", e);
        }
    }

    private void expect(JsonToken actual, JsonToken expected, String what) {
        if (actual != expected) {
            throw bad(what + ": expected " + expected + " but found " + actual);
        }
    }

    private void require(Object value, String field) {
        if (value == null) {
            throw bad("required field '" + field + "' is missing");
        }
    }

    private long at() {
        return Math.max(0, p.currentTokenLocation().getByteOffset());
    }

    private CorruptCheckpointException bad(String message) {
        return new CorruptCheckpointException(file, base + at(), "manifest: " + message);
    }

    /** Entries and the JSON offsets of their objects and chunk objects, as they are parsed. */
    private static final class Entries {
        final List<EntryDescriptor> list = new ArrayList<>();
        final List<Long> entryAt = new ArrayList<>();
        final List<long[]> chunkAt = new ArrayList<>();

        long[] entryAt() {
            return entryAt.stream().mapToLong(Long::longValue).toArray();
        }
    }
}
