package io.ironloop.launcher;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * How one attempt ended.
 *
 * @param status 0 if every rank exited 0, else the status of the first rank that failed
 * @param failedRank that rank, or -1
 * @param iteration the highest iteration any rank reported in this attempt
 * @param injected whether the first failure was caused by an injected fault
 * @param signal the signal the launcher received during the attempt, if any
 * @param usageError why the run cannot do what was asked, if found during the attempt
 * @param error the exception a rank reported before ending (the cause, whichever rank exited first), if any
 * @param online the ranks lost and recovered online, and why that failed if it did
 * @param halted why the ranks were stopped for a halt request ({@link HaltRequest}), if they were
 */
record AttemptOutcome(int status, int failedRank, OptionalLong iteration, boolean injected,
        Optional<LauncherSignal> signal, Optional<String> usageError, Optional<RankError> error, OnlineLosses.Summary online,
        Optional<String> halted) {

    AttemptOutcome(int status, int failedRank, OptionalLong iteration, boolean injected,
            Optional<LauncherSignal> signal, Optional<String> usageError, Optional<RankError> error, OnlineLosses.Summary online) {
        this(status, failedRank, iteration, injected, signal, usageError, error, online, Optional.empty());
    }

    AttemptOutcome(int status, int failedRank, OptionalLong iteration, boolean injected,
            Optional<LauncherSignal> signal, Optional<String> usageError, Optional<RankError> error) {
        this(status, failedRank, iteration, injected, signal, usageError, error, OnlineLosses.Summary.NONE);
    }

    AttemptOutcome(int status, int failedRank, OptionalLong iteration, boolean injected,
            Optional<LauncherSignal> signal, Optional<String> usageError) {
        this(status, failedRank, iteration, injected, signal, usageError, Optional.empty());
    }

    /**
     * What failed: the rank's own error when it reported one, else which rank exited how; then why the
     * survivors did not recover online, when they tried.
     */
    String cause() {
        String failed = error.map(RankError::describe)
                .orElseGet(() -> failedRank < 0 ? "" : "rank " + failedRank + " exited with " + ExitStatuses.describe(status));
        return online.failure().map(f -> failed.isEmpty() ? f : failed + "; " + f).orElse(failed);
    }

    boolean succeeded() {
        return status == 0 && signal.isEmpty() && usageError.isEmpty() && halted.isEmpty();
    }
}
