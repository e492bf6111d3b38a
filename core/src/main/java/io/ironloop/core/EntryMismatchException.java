package io.ironloop.core;

import io.ironloop.IronloopException;

/**
 * A committed line is intact but cannot be restored into the objects registered now: it lacks a protected
 * entry, or holds one with another element type or shape. {@link CheckpointEngine#restore()} skips such a
 * line with a warning naming the difference and restores the previous usable line; the exception is what
 * that warning, and the {@link EngineListener#restoreFellBack} event, carry.
 */
public class EntryMismatchException extends IronloopException {
    private static final long serialVersionUID = 1L;
    private final String dataFile;

    /**
     * @param dataFile the line's data file (store-relative)
     * @param difference what differs, naming the entry, what the line holds and what is registered
     */
    public EntryMismatchException(String dataFile, String difference) {
        super("checkpoint " + dataFile + " " + difference);
        this.dataFile = dataFile;
    }

    /** The store-relative name of the line's data file. */
    public String dataFile() {
        return dataFile;
    }
}
