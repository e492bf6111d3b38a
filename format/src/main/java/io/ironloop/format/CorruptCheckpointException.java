package io.ironloop.format;

import io.ironloop.IronloopException;

/**
 * A checkpoint file is damaged or malicious: bad magic, unsupported version, a checksum that does not
 * hold, a length or count out of range, a truncation. Names the file and the byte offset.
 */
public class CorruptCheckpointException extends IronloopException {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final long offset;

    /**
     * @param file the file's name as the reader was given it (or a referenced file's store-relative name)
     * @param offset the byte offset where the problem was found
     * @param problem what is wrong; the message becomes "{@code file} at offset {@code offset}: {@code problem}"
     */
    public CorruptCheckpointException(String file, long offset, String problem) {
        this(file, offset, problem, null);
    }

    /** As {@link #CorruptCheckpointException(String, long, String)}, with the exception that revealed the problem. */
    public CorruptCheckpointException(String file, long offset, String problem, Throwable cause) {
        super(file + " at offset " + offset + ": " + problem, cause);
        this.file = file;
        this.offset = offset;
    }

    /** The file's name as the reader was given it. */
    public String file() {
        return file;
    }

    /** The byte offset where the problem was found. */
    public long offset() {
        return offset;
    }
}
