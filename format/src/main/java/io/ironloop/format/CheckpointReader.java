package io.ironloop.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.List;

/**
 * Reads and validates one checkpoint file. Opening checks magic, version, header and trailer CRCs and
 * the manifest's CRC and bounds; reading checks every chunk's CRC32C. Corrupt or malicious input yields
 * a {@link CorruptCheckpointException} naming file and offset, never an OutOfMemoryError or a hang.
 */
public final class CheckpointReader {
    private CheckpointReader() {
    }

    /** Opens a file; {@code resolver} opens earlier files named by differential references. */
    public static CheckpointReader open(SeekableByteChannel channel, String fileName, ChunkResolver resolver) throws IOException {
        throw new UnsupportedOperationException("format: pending implementation");
    }

    public Manifest manifest() {
        throw new UnsupportedOperationException("format: pending implementation");
    }

    /** Decodes entry {@code name} into {@code target}, whose remaining bytes must equal the entry's byte length. */
    public void readEntry(String name, ByteBuffer target) throws IOException {
        throw new UnsupportedOperationException("format: pending implementation");
    }

    /** Checks every chunk of every entry (following references) and lists the problems; empty when all hold. */
    public List<CorruptCheckpointException> verify() throws IOException {
        throw new UnsupportedOperationException("format: pending implementation");
    }
}
