package io.ironloop.core.internal;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironloop.core.LineInfo;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.internal.StoreNames;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Encodes and decodes commit records (see docs/format.md, "Commit record"): a first line
 * {@code IRONLOOP-COMMIT 1}, one line of JSON, and a last line {@code crc32c XXXXXXXX} whose CRC32C covers
 * every byte before it.
 */
public final class CommitRecord {
    /** First line of every commit record. */
    public static final String MAGIC_LINE = "IRONLOOP-COMMIT 1\n";
    /** Commit records are small; anything larger is not one. */
    public static final int MAX_BYTES = 64 * 1024;
    private static final String CRC_PREFIX = "crc32c ";
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(8).maxStringLength(4096).build()).build());

    private CommitRecord() {
    }

    public static byte[] encode(LineInfo line) {
        ObjectNode o = JSON.createObjectNode();
        o.put("series", line.series());
        o.put("sequence", line.sequence());
        o.put("iteration", line.iteration());
        o.put("dataFile", line.dataFile());
        o.put("dataBytes", line.dataBytes());
        o.put("settingsFingerprint", line.settingsFingerprint());
        o.put("full", line.full());
        ArrayNode refs = o.putArray("references");
        line.references().stream().sorted().forEach(refs::add);
        o.put("jobId", line.jobId());
        o.put("rank", line.rank());
        o.put("worldSize", line.worldSize());
        o.put("createdAt", line.createdAt().toString());
        String body = MAGIC_LINE + o + "\n";
        CRC32C crc = new CRC32C();
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        crc.update(b);
        return (body + CRC_PREFIX + String.format("%08x", (int) crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Decodes a commit record.
     *
     * @throws CorruptCheckpointException naming {@code file} when anything does not hold
     */
    public static LineInfo decode(byte[] bytes, String file) {
        if (bytes.length > MAX_BYTES) {
            throw new CorruptCheckpointException(file, MAX_BYTES, "commit record larger than " + MAX_BYTES + " bytes");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!text.startsWith(MAGIC_LINE)) {
            throw new CorruptCheckpointException(file, 0, "not a commit record (expected first line '" + MAGIC_LINE.trim() + "')");
        }
        int crcLine = text.lastIndexOf(CRC_PREFIX);
        if (crcLine < MAGIC_LINE.length() || !text.endsWith("\n") || text.length() - crcLine != CRC_PREFIX.length() + 9) {
            throw new CorruptCheckpointException(file, Math.max(crcLine, 0), "commit record has no well-formed 'crc32c' line (truncated?)");
        }
        int stored;
        try {
            stored = HexFormat.fromHexDigits(text, crcLine + CRC_PREFIX.length(), crcLine + CRC_PREFIX.length() + 8);
        } catch (IllegalArgumentException e) {
            throw new CorruptCheckpointException(file, crcLine, "commit record CRC is not hexadecimal", e);
        }
        byte[] covered = text.substring(0, crcLine).getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(covered);
        if ((int) crc.getValue() != stored) {
            throw new CorruptCheckpointException(file, 0, String.format("commit record CRC32C mismatch: stored %08x, computed %08x",
                    stored, (int) crc.getValue()));
        }
        try {
            JsonNode o = JSON.readTree(text.substring(MAGIC_LINE.length(), crcLine));
            Set<String> refs = new HashSet<>();
            for (JsonNode r : o.withArray("references")) {
                refs.add(StoreNames.check(r.asText()));
            }
            return new LineInfo(StoreNames.checkSeries(text(o, "series")), o.get("sequence").asLong(), o.get("iteration").asLong(),
                    StoreNames.check(text(o, "dataFile")), o.get("dataBytes").asLong(), text(o, "settingsFingerprint"),
                    o.get("full").asBoolean(), refs, text(o, "jobId"), o.get("rank").asInt(), o.get("worldSize").asInt(),
                    Instant.parse(text(o, "createdAt")));
        } catch (Exception e) {
            throw new CorruptCheckpointException(file, MAGIC_LINE.length(), "commit record JSON is malformed: " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode o, String field) {
        JsonNode n = o.get(field);
        if (n == null || !n.isTextual()) {
            throw new IllegalArgumentException("field '" + field + "' missing or not text");
        }
        return n.asText();
    }
}
