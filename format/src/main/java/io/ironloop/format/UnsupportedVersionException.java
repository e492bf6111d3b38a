package io.ironloop.format;

/**
 * A checkpoint file was written in a major format version this reader does not know (usually by a
 * newer Ironloop). The file may well be intact; read it with a release that supports its version.
 */
public class UnsupportedVersionException extends CorruptCheckpointException {
    private static final long serialVersionUID = 1L;
    private final int major;
    private final int minor;

    public UnsupportedVersionException(String file, long offset, int major, int minor, int supportedMajor) {
        super(file, offset, "format version " + major + "." + minor + " is not supported (this reader reads major version "
                + supportedMajor + "); read it with the Ironloop release that wrote it or a newer one");
        this.major = major;
        this.minor = minor;
    }

    /** The file's major format version. */
    public int major() {
        return major;
    }

    /** The file's minor format version. */
    public int minor() {
        return minor;
    }
}
