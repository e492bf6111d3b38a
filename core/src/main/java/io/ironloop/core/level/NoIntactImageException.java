package io.ironloop.core.level;

import io.ironloop.IronloopException;

/**
 * No level of a chain holds an intact image of a block at an iteration: each either does not hold it or holds a
 * damaged copy (the message names what every level said). A restore then falls back to a level outside the chain
 * (online recovery: the disk line).
 */
public final class NoIntactImageException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public NoIntactImageException(String message) {
        super(message);
    }
}
