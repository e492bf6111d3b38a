package io.ironloop.group;

import io.ironloop.IronloopException;
import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One or more members of a {@link ProcessGroup} failed (crashed, hung past the detection timeout, or were
 * excluded from the membership). Thrown from every survivor's pending and next group operation once the
 * failure is known (the group is <em>revoked</em>); call {@link ProcessGroup#shrink()} to continue with the
 * survivors.
 */
public class ProcessFailedException extends IronloopException {
    private static final long serialVersionUID = 1L;

    private final SortedSet<Integer> failedRanks;
    private final String jobId;

    /**
     * @param jobId the job of the group
     * @param failedRanks the failed ranks, numbered in the group that observed the failure
     * @param detail what was going on when the failure surfaced, e.g. "allreduce"
     */
    public ProcessFailedException(String jobId, Set<Integer> failedRanks, String detail) {
        super(message(jobId, failedRanks, detail));
        this.jobId = jobId;
        this.failedRanks = Collections.unmodifiableSortedSet(new TreeSet<>(failedRanks));
    }

    private static String message(String jobId, Set<Integer> failed, String detail) {
        return "rank" + (failed.size() == 1 ? " " : "s ") + new TreeSet<>(failed) + " of job " + jobId
                + (failed.size() == 1 ? " has" : " have") + " failed (" + detail
                + "); the group is revoked: call shrink() to continue with the survivors, or restart the job from its checkpoints";
    }

    /** The failed ranks, in the numbering of the group whose operation threw. */
    public SortedSet<Integer> failedRanks() {
        return failedRanks;
    }

    /** The job id of the group. */
    public String jobId() {
        return jobId;
    }
}
