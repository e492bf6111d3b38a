package io.ironloop.core;

import io.ironloop.IronloopException;

/**
 * Committed lines exist but none of them could be restored (every one is corrupt or unreadable). The
 * registered objects may have been partly overwritten by the attempts: reinitialise them before starting
 * fresh. The causes of the individual failures are attached as suppressed exceptions.
 */
public class NoIntactCheckpointException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public NoIntactCheckpointException(String message) {
        super(message);
    }
}
