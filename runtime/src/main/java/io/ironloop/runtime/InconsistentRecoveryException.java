package io.ironloop.runtime;

import io.ironloop.IronloopException;

/**
 * Per-rank state cannot be restored consistently with the recovery line: some rank has no line at the
 * iteration the global state resumes from (it died before saving one, or its lines are from other
 * iterations). Restoring anyway would mix iterations and give wrong results, so the restart is refused, on
 * every rank alike; the message lists each rank's lines and what to do.
 */
public class InconsistentRecoveryException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public InconsistentRecoveryException(String message) {
        super(message);
    }
}
