package io.ironloop.runtime;

import io.ironloop.IronloopException;

/**
 * A restart cannot use saved state as asked: per-rank state saved by a job of another size, which cannot
 * be redistributed, or a block loop's snapshot whose loop state does not match what the loop registers now.
 * Never ignored silently.
 */
public class IncompatibleRestartException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public IncompatibleRestartException(String message) {
        super(message);
    }
}
