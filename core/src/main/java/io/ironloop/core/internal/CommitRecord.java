package io.ironloop.core.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.ironloop.core.LineInfo;
import io.ironloop.format.ChecksumMismatchException;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.UnsupportedVersionException;
import io.ironloop.format.internal.StoreNames;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * Encodes and decodes commit records (see docs/format.md, "Commit record"): a first line
 * {@code IRONLOOP-COMMIT 1}, one line of JSON, and a last line {@code crc32c xxxxxxxx} whose CRC32C covers
 * every byte before it.
 *
 * <p>Decoding treats the record as hostile input and is strict: exactly three {@code \n}-terminated lines of
 * UTF-8 without a byte-order mark, eight lowercase hex digits of CRC, every field present with its exact JSON
 * type (no coercion of {@code "3"} to 3 or of {@code "yes"} to true), integers in range, no duplicate keys,
 * the documented size limits, and every self-reference (series, sequence, data file, references) agreeing
 * with the name the record was found under.
 */
public final class CommitRecord {
    /** The commit-record format version this code writes and reads. */
    public static final int VERSION = 1;
    /** First line of every commit record. */
    public static final String MAGIC_LINE = "IRONLOOP-COMMIT " + VERSION + "\n";
    /** Commit records are small; anything larger is not one. */
    public static final int MAX_BYTES = 64 * 1024;
    /** Longest JSON string value (job id, fingerprint, names) a record may hold. */
    public static final int MAX_STRING_CHARS = 4096;
    private static final String CRC_PREFIX = "crc32c ";
    /** {@code crc32c } plus eight hex digits plus {@code \n}. */
    private static final int CRC_LINE_BYTES = CRC_PREFIX.length() + 9;
    private static final Pattern VERSION_LINE = Pattern.compile("IRONLOOP-COMMIT (\\d{1,5})");
    private static final Pattern CRC_LINE = Pattern.compile("crc32c [0-9a-f]{8}\n");
    private static final long MAX_SEQUENCE = 999_999_999_999L;
    private static final String F_SERIES = "series";
    private static final String F_SEQUENCE = "sequence";
    private static final String F_ITERATION = "iteration";
    private static final String F_DATA_FILE = "dataFile";
    private static final String F_DATA_BYTES = "dataBytes";
    private static final String F_SETTINGS = "settingsFingerprint";
    private static final String F_FULL = "full";
    private static final String F_REFERENCES = "references";
    private static final String F_JOB = "jobId";
    private static final String F_RANK = "rank";
    private static final String F_WORLD_SIZE = "worldSize";
    private static final String F_CREATED = "createdAt";
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(2)
                    .maxDocumentLength(MAX_BYTES)
                    .maxStringLength(MAX_STRING_CHARS)
                    .maxNameLength(64)
                    .maxNumberLength(20)
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private CommitRecord() {
    }

    public static byte[] encode(LineInfo line) {
        StringWriter json = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(json)) {
            g.writeStartObject();
            g.writeStringField(F_SERIES, line.series());
            g.writeNumberField(F_SEQUENCE, line.sequence());
            g.writeNumberField(F_ITERATION, line.iteration());
            g.writeStringField(F_DATA_FILE, line.dataFile());
            g.writeNumberField(F_DATA_BYTES, line.dataBytes());
            g.writeStringField(F_SETTINGS, line.settingsFingerprint());
            g.writeBooleanField(F_FULL, line.full());
            g.writeArrayFieldStart(F_REFERENCES);
            for (String r : line.references().stream().sorted().toList()) {
                g.writeString(r);
            }
            g.writeEndArray();
            g.writeStringField(F_JOB, line.jobId());
            g.writeNumberField(F_RANK, line.rank());
            g.writeNumberField(F_WORLD_SIZE, line.worldSize());
            g.writeStringField(F_CREATED, line.createdAt().toString());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to memory", e);
        }
        byte[] body = (MAGIC_LINE + json + "\n").getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(body);
        byte[] crcLine = (CRC_PREFIX + HexFormat.of().toHexDigits((int) crc.getValue()) + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = java.util.Arrays.copyOf(body, body.length + crcLine.length);
        System.arraycopy(crcLine, 0, out, body.length, crcLine.length);
        return out;
    }

    /**
     * Decodes the commit record found under the store-relative name {@code file}
     * ({@code series/line-NNNNNNNNNNNN.commit}) and checks that it describes that line.
     *
     * @throws UnsupportedVersionException when the record's first line names another version (a newer Ironloop)
     * @throws ChecksumMismatchException when the CRC line does not match the bytes before it
     * @throws CorruptCheckpointException naming {@code file} and the offset when anything else does not hold
     */
    public static LineInfo decode(byte[] bytes, String file) {
        if (bytes.length > MAX_BYTES) {
            throw new CorruptCheckpointException(file, MAX_BYTES, "commit record larger than " + MAX_BYTES + " bytes");
        }
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            throw new CorruptCheckpointException(file, 0, "commit record starts with a byte-order mark; commit records are UTF-8 without one");
        }
        String text = strictUtf8(bytes, file);
        int firstEnd = text.indexOf('\n');
        Matcher version = VERSION_LINE.matcher(firstEnd < 0 ? text : text.substring(0, firstEnd));
        if (firstEnd < 0 || !version.matches()) {
            throw new CorruptCheckpointException(file, 0, "not a commit record (expected first line '" + MAGIC_LINE.trim() + "')");
        }
        int v = Integer.parseInt(version.group(1));
        if (v != VERSION) {
            throw new UnsupportedVersionException(file, "IRONLOOP-COMMIT ".length(), v, 0, VERSION);
        }
        if (firstEnd + 1 != MAGIC_LINE.length()) {
            throw new CorruptCheckpointException(file, 0, "not a commit record (expected first line '" + MAGIC_LINE.trim() + "')");
        }
        // the CRC line is ASCII, so its byte offset is the byte length minus its own
        int crcAt = bytes.length - CRC_LINE_BYTES;
        int jsonEnd = text.length() - CRC_LINE_BYTES;
        if (jsonEnd <= MAGIC_LINE.length() || !CRC_LINE.matcher(text.substring(jsonEnd)).matches() || text.charAt(jsonEnd - 1) != '\n') {
            throw new CorruptCheckpointException(file, Math.max(crcAt, 0), "commit record does not end with a line 'crc32c' and eight"
                    + " lowercase hex digits (truncated, or edited?)");
        }
        int stored = HexFormat.fromHexDigits(text, jsonEnd + CRC_PREFIX.length(), jsonEnd + CRC_PREFIX.length() + 8);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, crcAt);
        if ((int) crc.getValue() != stored) {
            throw new ChecksumMismatchException(file, 0, "the commit record (" + crcAt + " bytes)", stored, (int) crc.getValue());
        }
        String json = text.substring(MAGIC_LINE.length(), jsonEnd - 1);
        if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
            throw new CorruptCheckpointException(file, MAGIC_LINE.length(), "commit record has more than three lines");
        }
        LineInfo line = new Parser(json, file).record();
        checkSelfReferences(line, file);
        return line;
    }

    private static String strictUtf8(byte[] bytes, String file) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new CorruptCheckpointException(file, 0, "commit record is not valid UTF-8", e);
        }
    }

    /** The record must describe the line whose name it was found under, and reference only earlier lines of its series. */
    private static void checkSelfReferences(LineInfo line, String file) {
        int slash = file.indexOf('/');
        String dir = slash < 0 ? "" : file.substring(0, slash);
        long n = LineCatalog.sequenceOf(file, LineCatalog.COMMIT_SUFFIX);
        if (n < 0) {
            throw new CorruptCheckpointException(file, 0, "a commit record must be named series/line-NNNNNNNNNNNN"
                    + LineCatalog.COMMIT_SUFFIX);
        }
        if (!line.series().equals(dir)) {
            throw selfReference(file, "claims series '" + line.series() + "' but lies in series '" + dir + "'");
        }
        if (line.sequence() != n) {
            throw selfReference(file, "claims line " + line.sequence() + " but is the commit record of line " + n);
        }
        String data = LineCatalog.dataFile(dir, n);
        if (!line.dataFile().equals(data)) {
            throw selfReference(file, "names data file " + line.dataFile() + " but line " + n + "'s data file is " + data);
        }
        for (String r : line.references()) {
            long m = r.startsWith(dir + "/") ? LineCatalog.sequenceOf(r, LineCatalog.DATA_SUFFIX) : -1;
            if (m < 1 || m >= n) {
                throw selfReference(file, "references " + r + ", which is not the data file of an earlier line of series " + dir);
            }
        }
    }

    private static CorruptCheckpointException selfReference(String file, String problem) {
        return new CorruptCheckpointException(file, MAGIC_LINE.length(), "commit record " + problem
                + " (copied or edited by hand?); it is not trusted");
    }

    /** A strict reader of the JSON line: exact types, ranges, every field required, unknown fields skipped. */
    private static final class Parser {
        private final String json;
        private final String file;
        private JsonParser p;

        Parser(String json, String file) {
            this.json = json;
            this.file = file;
        }

        LineInfo record() {
            try (JsonParser parser = JSON.createParser(json)) {
                p = parser;
                return fields();
            } catch (JsonProcessingException e) {
                throw bad("is not valid JSON within limits: " + e.getOriginalMessage(), e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read from memory", e);
            }
        }

        private LineInfo fields() throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw bad("is not a JSON object", null);
            }
            String series = null;
            String dataFile = null;
            String settings = null;
            String job = null;
            Instant created = null;
            Boolean full = null;
            Set<String> refs = null;
            long sequence = -1;
            long iteration = -1;
            long dataBytes = -1;
            long rank = -1;
            long worldSize = -1;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case F_SERIES -> series = text(field);
                    case F_SEQUENCE -> sequence = integer(field, 1, MAX_SEQUENCE);
                    case F_ITERATION -> iteration = integer(field, 0, Long.MAX_VALUE);
                    case F_DATA_FILE -> dataFile = text(field);
                    case F_DATA_BYTES -> dataBytes = integer(field, 0, Long.MAX_VALUE);
                    case F_SETTINGS -> settings = text(field);
                    case F_FULL -> full = bool(field);
                    case F_REFERENCES -> refs = references();
                    case F_JOB -> job = text(field);
                    case F_RANK -> rank = integer(field, 0, Integer.MAX_VALUE - 1);
                    case F_WORLD_SIZE -> worldSize = integer(field, 1, Integer.MAX_VALUE);
                    case F_CREATED -> created = instant(field);
                    default -> p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw bad("has data after its object", null);
            }
            require(series, F_SERIES);
            require(sequence < 0 ? null : sequence, F_SEQUENCE);
            require(iteration < 0 ? null : iteration, F_ITERATION);
            require(dataFile, F_DATA_FILE);
            require(dataBytes < 0 ? null : dataBytes, F_DATA_BYTES);
            require(settings, F_SETTINGS);
            require(full, F_FULL);
            require(refs, F_REFERENCES);
            require(job, F_JOB);
            require(rank < 0 ? null : rank, F_RANK);
            require(worldSize < 0 ? null : worldSize, F_WORLD_SIZE);
            require(created, F_CREATED);
            if (rank >= worldSize) {
                throw bad("has rank " + rank + ", not below its worldSize " + worldSize, null);
            }
            if (full != refs.isEmpty()) {
                throw bad("says full: " + full + " but lists " + refs.size() + " references", null);
            }
            try {
                StoreNames.checkSeries(series);
                StoreNames.check(dataFile);
            } catch (IllegalArgumentException e) {
                throw bad("holds an invalid name: " + e.getMessage(), e);
            }
            return new LineInfo(series, sequence, iteration, dataFile, dataBytes, settings, full, refs, job, (int) rank, (int) worldSize,
                    created);
        }

        private Set<String> references() throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                throw bad("field '" + F_REFERENCES + "' is not an array", null);
            }
            Set<String> refs = new HashSet<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                String r = text(F_REFERENCES);
                try {
                    StoreNames.check(r);
                } catch (IllegalArgumentException e) {
                    throw bad("holds an invalid reference: " + e.getMessage(), e);
                }
                if (!refs.add(r)) {
                    throw bad("lists reference " + r + " twice", null);
                }
            }
            return refs;
        }

        private long integer(String field, long min, long max) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw bad("field '" + field + "' is not an integer (found " + p.currentToken() + ")", null);
            }
            long v = p.getLongValue();
            if (v < min || v > max) {
                throw bad("field '" + field + "' = " + v + " is outside " + min + ".." + max, null);
            }
            return v;
        }

        private String text(String field) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                throw bad("field '" + field + "' is not a string (found " + p.currentToken() + ")", null);
            }
            String s = p.getText();
            if (s.isEmpty()) {
                throw bad("field '" + field + "' is empty", null);
            }
            return s;
        }

        private boolean bool(String field) throws IOException {
            JsonToken t = p.currentToken();
            if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                throw bad("field '" + field + "' is not true or false (found " + t + ")", null);
            }
            return t == JsonToken.VALUE_TRUE;
        }

        private Instant instant(String field) throws IOException {
            String s = text(field);
            try {
                return Instant.parse(s);
            } catch (DateTimeParseException e) {
                throw bad("field '" + field + "' is not an ISO-8601 instant", e);
            }
        }

        private void require(Object value, String field) {
            if (value == null) {
                throw bad("lacks the required field '" + field + "'", null);
            }
        }

        private CorruptCheckpointException bad(String problem, Exception cause) {
            long at = MAGIC_LINE.length();
            if (p != null && p.currentTokenLocation() != null) {
                // the JSON line is ASCII-only in practice; the character offset is close to the byte offset
                at += Math.max(0, p.currentTokenLocation().getCharOffset());
            }
            return new CorruptCheckpointException(file, at, "commit record JSON " + problem, cause);
        }
    }
}
