package io.ironloop.format.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.FileMeta;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the manifest's JSON incrementally, one entry at a time as the payload is written, so its size
 * is known (and limited) before the file is finished. The field names here are the schema of
 * {@code docs/format.md}; {@link ManifestParser} reads the same names.
 */
public final class ManifestJson {
    static final String FORMAT_NAME = "ironloop-checkpoint";
    static final String F_FORMAT = "format";
    static final String F_FORMAT_VERSION = "formatVersion";
    static final String F_FORMAT_MINOR = "formatMinorVersion";
    static final String F_WRITER_VERSION = "writerVersion";
    static final String F_FILE = "file";
    static final String F_CHUNK_SIZE = "chunkSize";
    static final String F_META = "meta";
    static final String F_ENTRIES = "entries";
    static final String F_PADDING_CRC = "paddingCrc32c";
    static final String M_JOB = "jobId";
    static final String M_ITERATION = "iteration";
    static final String M_RANK = "rank";
    static final String M_WORLD_SIZE = "worldSize";
    static final String M_SETTINGS = "settingsFingerprint";
    static final String M_CREATED = "createdAt";
    static final String M_ATTRIBUTES = "attributes";
    static final String E_NAME = "name";
    static final String E_TYPE = "type";
    static final String E_SHAPE = "shape";
    static final String E_SCOPE = "scope";
    static final String E_CODEC = "codec";
    static final String E_BYTE_LENGTH = "byteLength";
    static final String E_CHUNKS = "chunks";
    static final String C_INDEX = "index";
    static final String C_RAW_LENGTH = "rawLength";
    static final String C_FILE = "file";
    static final String C_OFFSET = "offset";
    static final String C_STORED_LENGTH = "storedLength";
    static final String C_CODEC = "codec";
    static final String C_SHUFFLED = "shuffled";
    static final String C_ZERO = "zero";
    static final String C_CRC = "crc32c";
    static final String C_HASH = "hash";

    /** Shared, thread-safe factory with the stream limits a reader applies to hostile input. */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(Layout.MAX_JSON_DEPTH)
                    .maxDocumentLength(Layout.MAX_MANIFEST_BYTES)
                    .maxStringLength(Layout.MAX_TEXT_CHARS)
                    .maxNameLength(Layout.MAX_NAME_CHARS)
                    .maxNumberLength(24)
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    private final JsonGenerator g;

    /** Starts a manifest and writes everything that precedes the entries. */
    public ManifestJson(String fileName, int chunkSize, FileMeta meta, String writerVersion) {
        try {
            g = FACTORY.createGenerator(out, JsonEncoding.UTF8);
            g.writeStartObject();
            g.writeStringField(F_FORMAT, FORMAT_NAME);
            g.writeNumberField(F_FORMAT_VERSION, Layout.MAJOR);
            g.writeNumberField(F_FORMAT_MINOR, Layout.MINOR);
            g.writeStringField(F_WRITER_VERSION, writerVersion);
            g.writeStringField(F_FILE, fileName);
            g.writeNumberField(F_CHUNK_SIZE, chunkSize);
            writeMeta(meta);
            g.writeArrayFieldStart(F_ENTRIES);
            g.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to memory", e);
        }
    }

    /** Appends one entry and returns the manifest's size so far in bytes. */
    public long append(EntryDescriptor entry) {
        try {
            EntryHeader h = entry.header();
            g.writeStartObject();
            g.writeStringField(E_NAME, h.name());
            g.writeStringField(E_TYPE, h.type().name());
            g.writeArrayFieldStart(E_SHAPE);
            for (long d : h.shape()) {
                g.writeNumber(d);
            }
            g.writeEndArray();
            g.writeStringField(E_SCOPE, h.scope().name());
            g.writeStringField(E_CODEC, h.codec().name());
            g.writeNumberField(E_BYTE_LENGTH, h.byteLength());
            g.writeArrayFieldStart(E_CHUNKS);
            for (ChunkDescriptor c : entry.chunks()) {
                writeChunk(c);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.flush();
            return out.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to memory", e);
        }
    }

    /**
     * Closes the JSON document and returns its UTF-8 bytes.
     *
     * @param paddingCrc CRC32C over all padding bytes of the payload, in file order
     */
    public byte[] finish(int paddingCrc) {
        try {
            g.writeEndArray();
            g.writeNumberField(F_PADDING_CRC, Integer.toUnsignedLong(paddingCrc));
            g.writeEndObject();
            g.close();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to memory", e);
        }
    }

    private void writeMeta(FileMeta meta) throws IOException {
        g.writeObjectFieldStart(F_META);
        g.writeStringField(M_JOB, meta.jobId());
        g.writeNumberField(M_ITERATION, meta.iteration());
        g.writeNumberField(M_RANK, meta.rank());
        g.writeNumberField(M_WORLD_SIZE, meta.worldSize());
        g.writeStringField(M_SETTINGS, meta.settingsFingerprint());
        g.writeStringField(M_CREATED, meta.createdAt().toString());
        g.writeObjectFieldStart(M_ATTRIBUTES);
        for (Map.Entry<String, String> a : new TreeMap<>(meta.attributes()).entrySet()) {
            g.writeStringField(a.getKey(), a.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void writeChunk(ChunkDescriptor c) throws IOException {
        g.writeStartObject();
        g.writeNumberField(C_INDEX, c.index());
        g.writeNumberField(C_RAW_LENGTH, c.rawLength());
        g.writeStringField(C_FILE, c.file());
        g.writeNumberField(C_OFFSET, c.offset());
        g.writeNumberField(C_STORED_LENGTH, c.storedLength());
        g.writeStringField(C_CODEC, c.codec().name());
        g.writeBooleanField(C_SHUFFLED, c.shuffled());
        g.writeBooleanField(C_ZERO, c.zero());
        g.writeNumberField(C_CRC, Integer.toUnsignedLong(c.crc32c()));
        g.writeStringField(C_HASH, c.hash());
        g.writeEndObject();
    }
}
