package io.ironloop.core;

import io.ironloop.IronloopException;

/**
 * A background checkpoint write failed (disk full, I/O error). The previous complete line is intact.
 * Thrown by the next engine call after the failure and by {@link CheckpointEngine#awaitDurable()}.
 */
public class CheckpointFailedException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public CheckpointFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
