package io.ironloop.format.internal;

import io.ironloop.format.ChunkDescriptor;
import io.ironloop.format.ChunkResolver;
import io.ironloop.format.CorruptCheckpointException;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.HashMap;
import java.util.Map;

/**
 * The files one read or verify pass takes chunks from: the reader's own file, plus the earlier files
 * differential references name, opened through the {@link ChunkResolver} on first use, checked (header
 * magic, version and CRC), and closed when the pass ends. A file that cannot be opened is remembered,
 * so every chunk that needs it fails fast with the same cause.
 */
public final class ChunkSources implements Closeable {

    /**
     * One file chunks are read from.
     *
     * @param channel the open channel
     * @param name the name used in messages (the reader's name for its own file, else the store-relative name)
     * @param size the file's size when opened
     */
    public record Source(SeekableByteChannel channel, String name, long size) {
    }

    private final Source own;
    private final String ownName;
    private final ChunkResolver resolver;
    private final Map<String, Source> opened = new HashMap<>();
    private final Map<String, CorruptCheckpointException> failed = new HashMap<>();

    /**
     * @param own the reader's own file
     * @param resolver opens referenced files
     */
    public ChunkSources(Source own, ChunkResolver resolver) {
        this.own = own;
        this.ownName = own.name();
        this.resolver = resolver;
    }

    /**
     * The file holding {@code c}'s stored bytes, after checking that they lie within its payload.
     *
     * @param where the chunk's description for messages, e.g. "chunk 2 of entry 'u'"
     * @throws CorruptCheckpointException when the referenced file cannot be opened, is not a checkpoint
     *     file, or is too short for the chunk
     */
    public Source sourceOf(ChunkDescriptor c, String where) throws IOException {
        Source s = c.file() == null ? own : referenced(c.file(), where, c.offset());
        if (c.offset() < Layout.PAYLOAD_START || c.offset() > s.size() - Layout.TRAILER_SIZE - c.storedLength()) {
            throw new CorruptCheckpointException(s.name(), c.offset(), where + " (" + c.storedLength()
                    + " stored bytes) does not lie within the payload of a " + s.size() + "-byte file"
                    + (c.file() == null ? "" : " (referenced by " + ownName + ")"));
        }
        return s;
    }

    private Source referenced(String name, String where, long offset) throws IOException {
        Source s = opened.get(name);
        if (s != null) {
            return s;
        }
        CorruptCheckpointException earlier = failed.get(name);
        if (earlier != null) {
            throw new CorruptCheckpointException(ownName, offset, where + " is in '" + name + "', which is unusable: "
                    + earlier.getMessage(), earlier);
        }
        SeekableByteChannel ch;
        try {
            ch = resolver.open(name);
            if (ch == null) {
                throw new IOException("the resolver found no file");
            }
        } catch (IOException | RuntimeException e) {
            CorruptCheckpointException x = new CorruptCheckpointException(ownName, offset, where + " is stored in the earlier file '"
                    + name + "', which cannot be opened: " + e.getMessage(), e);
            failed.put(name, x);
            throw x;
        }
        try {
            long size = ch.size();
            if (size < Layout.MIN_FILE_SIZE) {
                throw new CorruptCheckpointException(name, size, "referenced file is only " + size + " bytes long");
            }
            ByteBuffer header = ByteBuffer.allocate(Layout.HEADER_SIZE);
            ChannelIo.readFully(ch, 0, header, name);
            FileHeader.decode(header.flip(), name);
            s = new Source(ch, name, size);
            opened.put(name, s);
            return s;
        } catch (CorruptCheckpointException e) {
            failed.put(name, e);
            ch.close();
            throw e;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Closes the referenced files this pass opened (never the reader's own channel). */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (Source s : opened.values()) {
            try {
                s.channel().close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }
}
