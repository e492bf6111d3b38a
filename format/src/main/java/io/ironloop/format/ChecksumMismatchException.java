package io.ironloop.format;

/**
 * A CRC32C stored in a checkpoint file does not match the bytes it covers: the header, the manifest,
 * the trailer or one chunk. Carries both values so tools can print them.
 */
public class ChecksumMismatchException extends CorruptCheckpointException {
    private static final long serialVersionUID = 1L;
    private final int stored;
    private final int computed;

    /**
     * @param file the file holding the bytes
     * @param offset where the covered bytes start
     * @param what which bytes, for the message (e.g. "chunk 3 of entry 'u' (1048576 stored bytes)")
     * @param stored the CRC32C recorded in the file
     * @param computed the CRC32C of the bytes as read
     */
    public ChecksumMismatchException(String file, long offset, String what, int stored, int computed) {
        super(file, offset, "CRC32C mismatch in " + what + ": stored " + hex(stored) + ", computed " + hex(computed));
        this.stored = stored;
        this.computed = computed;
    }

    /** The CRC32C recorded in the file. */
    public int stored() {
        return stored;
    }

    /** The CRC32C computed over the bytes read. */
    public int computed() {
        return computed;
    }

    private static String hex(int crc) {
        return String.format("0x%08x", crc);
    }
}
