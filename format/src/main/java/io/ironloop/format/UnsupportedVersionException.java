package io.ironloop.format;

/**
 * A checkpoint file (or commit record) was written in a major format version this reader does not know,
 * usually by a newer Ironloop. The file may well be intact; read it with a release that supports its
 * version. It is a {@link CorruptCheckpointException} so that tools listing damage report it beside the
 * rest, but it is not damage: the checkpoint engine stops with it instead of falling back to an older line,
 * which would silently roll back the newer state.
 */
public class UnsupportedVersionException extends CorruptCheckpointException {
    private static final long serialVersionUID = 1L;
    private final int major;
    private final int minor;
    private final int supportedMajor;

    /**
     * @param file the file's name
     * @param offset where the version is recorded
     * @param major the file's major version
     * @param minor the file's minor version
     * @param supportedMajor the major version this reader reads
     */
    public UnsupportedVersionException(String file, long offset, int major, int minor, int supportedMajor) {
        super(file, offset, major > supportedMajor
                ? "written by a newer Ironloop (format " + major + "." + minor + "; this release reads format " + supportedMajor
                        + ".x): upgrade Ironloop to read it (an older line is not restored instead, as that would roll back newer state)"
                : "format version " + major + "." + minor + " is not supported (this reader reads major version "
                        + supportedMajor + "); read it with the Ironloop release that wrote it or a newer one");
        this.major = major;
        this.minor = minor;
        this.supportedMajor = supportedMajor;
    }

    /** Whether a newer Ironloop wrote the file (its major version is above the reader's). */
    public boolean newer() {
        return major > supportedMajor;
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
