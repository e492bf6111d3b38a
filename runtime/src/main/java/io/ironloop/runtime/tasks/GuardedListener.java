package io.ironloop.runtime.tasks;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls a user's {@link TaskPoolListener}, logging and otherwise ignoring what it throws. */
final class GuardedListener implements TaskPoolListener {
    private static final Logger LOG = LoggerFactory.getLogger(GuardedListener.class);

    private final TaskPoolListener delegate;

    GuardedListener(TaskPoolListener delegate) {
        this.delegate = delegate;
    }

    private void call(String event, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("task pool listener threw from {}; ignoring it", event, e);
        }
    }

    @Override
    public void roundStarted(long round, int assignedTasks, int skippedTasks) {
        call("roundStarted", () -> delegate.roundStarted(round, assignedTasks, skippedTasks));
    }

    @Override
    public void tasksStolen(long round, int fromRank, List<Integer> tasks) {
        call("tasksStolen", () -> delegate.tasksStolen(round, fromRank, tasks));
    }

    @Override
    public void tasksGivenAway(long round, int toRank, List<Integer> tasks) {
        call("tasksGivenAway", () -> delegate.tasksGivenAway(round, toRank, tasks));
    }

    @Override
    public void roundFinished(RoundReport report) {
        call("roundFinished", () -> delegate.roundFinished(report));
    }

    @Override
    public void roundFailed(long round, Throwable cause) {
        call("roundFailed", () -> delegate.roundFailed(round, cause));
    }
}
