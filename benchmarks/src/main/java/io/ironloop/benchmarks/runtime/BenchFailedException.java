package io.ironloop.benchmarks.runtime;

import io.ironloop.IronloopException;

/** A bench could not measure: a job failed, timed out or did not do what the bench needed. */
public final class BenchFailedException extends IronloopException {
    private static final long serialVersionUID = 1L;

    BenchFailedException(String message) {
        super(message);
    }

    BenchFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
