package io.ironloop.group;

import java.util.Set;

/**
 * This process was declared failed by the others (it was stopped, or starved of CPU, for longer than failure
 * detection allows) and must not continue: the survivors already went on without it, and whatever it still
 * sends belongs to a group that no longer exists. Thrown from every group operation once the exclusion is known;
 * the process should leave the job (a shrink cannot bring it back).
 */
public final class ProcessExcludedException extends ProcessFailedException {
    private static final long serialVersionUID = 1L;

    /**
     * @param jobId the job of the group
     * @param thisRank this process's rank in the group whose operation threw
     * @param detail what happened, naming who excluded this process
     */
    public ProcessExcludedException(String jobId, int thisRank, String detail) {
        super(jobId, Set.of(thisRank), detail);
    }
}
