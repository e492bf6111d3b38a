package io.ironloop.format.internal;

import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.Codec;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.Manifest;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The semantic checks a parsed manifest must pass before any of it is trusted: versions agree, names
 * are unique and valid, each entry's chunks are exactly the ones its byte length and the chunk size
 * imply, every chunk's fields are consistent, and the chunks stored in this file, with the alignment
 * padding between them, tile the payload region exactly (so every byte of the file is covered by some
 * CRC32C: a chunk's, or the manifest's padding CRC).
 */
public final class ManifestChecks {
    private ManifestChecks() {
    }

    /**
     * @param parsed the parsed manifest
     * @param file the file's name for messages
     * @param header the file's validated header
     * @param manifestOffset where the manifest starts, which is where the payload must end
     * @throws CorruptCheckpointException naming the offset of the first offending manifest object
     */
    public static void validate(ParsedManifest parsed, String file, FileHeader header, long manifestOffset) {
        Manifest m = parsed.manifest();
        long manifestAt = manifestOffset;
        if (m.formatVersion() != header.major()) {
            throw new CorruptCheckpointException(file, manifestAt, "manifest declares format version " + m.formatVersion()
                    + " but the header " + header.major());
        }
        if (parsed.minor() != header.minor()) {
            throw new CorruptCheckpointException(file, manifestAt, "manifest declares format minor version " + parsed.minor()
                    + " but the header " + header.minor());
        }
        long chunkSize = parsed.chunkSize();
        if (Long.bitCount(chunkSize) != 1) {
            throw new CorruptCheckpointException(file, manifestAt, "manifest: chunkSize " + chunkSize + " is not a power of two");
        }
        String nameProblem = StoreNames.problem(m.fileName());
        if (nameProblem != null) {
            throw new CorruptCheckpointException(file, manifestAt, "manifest: own " + nameProblem);
        }
        Set<String> names = new HashSet<>();
        long next = Layout.PAYLOAD_START;
        List<EntryDescriptor> entries = m.entries();
        for (int e = 0; e < entries.size(); e++) {
            EntryDescriptor entry = entries.get(e);
            long entryAt = parsed.entryAt()[e];
            if (!names.add(entry.name())) {
                throw new CorruptCheckpointException(file, entryAt, "manifest: entry name '" + StoreNames.printable(entry.name())
                        + "' appears twice");
            }
            EntryHeader h = entry.header();
            long length = h.byteLength();
            long expected = (length + chunkSize - 1) / chunkSize;
            if (entry.chunks().size() != expected) {
                throw new CorruptCheckpointException(file, entryAt, "manifest: entry '" + StoreNames.printable(entry.name())
                        + "' of " + length + " bytes needs " + expected + " chunks of " + chunkSize + " but lists "
                        + entry.chunks().size());
            }
            for (int i = 0; i < entry.chunks().size(); i++) {
                ChunkDescriptor c = entry.chunks().get(i);
                long at = parsed.chunkAt()[e][i];
                String problem = problem(c, i, Math.min(chunkSize, length - i * chunkSize), h, m.fileName());
                if (problem != null) {
                    throw new CorruptCheckpointException(file, at, "manifest: chunk " + i + " of entry '"
                            + StoreNames.printable(entry.name()) + "': " + problem);
                }
                if (!c.zero() && c.file() == null) {
                    long gap = c.offset() - next;
                    if (gap != 0 && (gap < 0 || gap >= Layout.ALIGNMENT || c.offset() % Layout.ALIGNMENT != 0)) {
                        throw new CorruptCheckpointException(file, at, "manifest: chunk " + i + " of entry '"
                                + StoreNames.printable(entry.name()) + "' is stored at " + c.offset() + " but the previous stored chunk ends at "
                                + next + " (chunks must follow each other in manifest order, with at most "
                                + (Layout.ALIGNMENT - 1) + " bytes of padding before a chunk at a multiple of " + Layout.ALIGNMENT + ")");
                    }
                    next = c.offset() + c.storedLength();
                    if (next > manifestOffset) {
                        throw new CorruptCheckpointException(file, at, "manifest: chunk " + i + " of entry '"
                                + StoreNames.printable(entry.name()) + "' ends at " + next + ", beyond the payload's end " + manifestOffset);
                    }
                }
            }
        }
        if (next != manifestOffset) {
            throw new CorruptCheckpointException(file, next, "payload bytes " + next + ".." + manifestOffset
                    + " belong to no chunk in the manifest");
        }
    }

    /**
     * The padding regions of a validated file's payload in file order, as {offset, length} pairs: the
     * gaps before stored chunks that the writer aligned.
     */
    public static List<long[]> padding(Manifest m) {
        List<long[]> gaps = new java.util.ArrayList<>();
        long next = Layout.PAYLOAD_START;
        for (EntryDescriptor e : m.entries()) {
            for (ChunkDescriptor c : e.chunks()) {
                if (!c.zero() && c.file() == null) {
                    if (c.offset() > next) {
                        gaps.add(new long[] {next, c.offset() - next});
                    }
                    next = c.offset() + c.storedLength();
                }
            }
        }
        return gaps;
    }

    /** What is wrong with one chunk descriptor, or null. */
    private static String problem(ChunkDescriptor c, int position, long rawLength, EntryHeader h, String ownName) {
        if (c.index() != position) {
            return "index " + c.index() + " where " + position + " was expected";
        }
        if (c.rawLength() != rawLength) {
            return "rawLength " + c.rawLength() + " where " + rawLength + " was expected";
        }
        if (c.zero()) {
            boolean clean = c.file() == null && c.offset() == -1 && c.storedLength() == 0 && c.codec() == Codec.NONE
                    && !c.shuffled() && c.crc32c() == 0;
            return clean ? null : "a zero chunk must have file null, offset -1, storedLength 0, codec NONE, shuffled false and crc32c 0";
        }
        if (c.offset() < Layout.PAYLOAD_START) {
            return "offset " + c.offset() + " is before the payload start " + Layout.PAYLOAD_START;
        }
        if (c.codec() == Codec.NONE ? c.storedLength() != c.rawLength() : c.storedLength() < 1 || c.storedLength() > c.rawLength()) {
            return "storedLength " + c.storedLength() + " does not fit codec " + c.codec() + " and rawLength " + c.rawLength();
        }
        if (c.shuffled() && (c.codec() == Codec.NONE || h.type().width() == 1)) {
            return "shuffled is set for codec " + c.codec() + " and element type " + h.type();
        }
        if (c.file() != null) {
            String nameProblem = StoreNames.problem(c.file());
            if (nameProblem != null) {
                return "reference: " + nameProblem;
            }
            if (c.file().equals(ownName)) {
                return "references its own file by name";
            }
        }
        return null;
    }
}
