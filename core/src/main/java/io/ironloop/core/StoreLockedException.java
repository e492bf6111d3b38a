package io.ironloop.core;

import io.ironloop.IronloopException;

/** Another job or engine already writes this series of the store. */
public class StoreLockedException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public StoreLockedException(String message) {
        super(message);
    }
}
