package io.ironloop.launcher;

import io.ironloop.IronloopException;

/**
 * The launcher could not do its own job: create the job secret, open its control socket or start a rank
 * process. A rank that fails is not an exception but a {@link LaunchResult} with a non-zero status.
 */
public class LaunchException extends IronloopException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and what to do
     * @param cause the underlying failure
     */
    public LaunchException(String message, Throwable cause) {
        super(message, cause);
    }
}
