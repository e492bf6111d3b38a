package io.ironloop.runtime;

import java.nio.file.Path;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.config.Parameters;
import io.ironloop.core.Store;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.internal.metrics.RankMetrics;
import io.ironloop.runtime.internal.state.GlobalState;
import io.ironloop.runtime.internal.state.JobCompletion;
import io.ironloop.runtime.internal.state.LocalState;
import io.ironloop.runtime.internal.trigger.TriggerReactions;
import io.ironloop.runtime.recovery.RestartRecovery;
import io.ironloop.runtime.trigger.Triggers;

/**
 * The collaborators {@link IronloopBuilder} assembled for one runtime, each with one job, and the order in
 * which they are taken down.
 *
 * @param replicator the copies of committed lines to the remote levels (none configured: a replicator without levels)
 * @param triggers the signal and notice triggers, or null when none is configured
 * @param metrics the rank's metrics and their endpoint
 */
record RuntimeParts(Parameters parameters, ProcessGroup group, Path folder, Store store, LineReplicator replicator,
        RuntimeEvents events, GlobalState global, LocalState local, TriggerReactions reactions, RestartRecovery recovery,
        JobCompletion completionRecord, Optional<Completion> completion, Triggers triggers,
        RankMetrics metrics) {
    private static final Logger LOG = LoggerFactory.getLogger(Ironloop.class);

    /**
     * Stops the reactions (waiting for a failure-triggered save) and the triggers, then closes the engines
     * (waiting for saves in flight), the remote levels (waiting for the copies in flight), the store and the group,
     * each even if an earlier step failed.
     */
    void close() {
        try {
            reactions.close();
            if (triggers != null) {
                triggers.close();
            }
        } finally {
            closeQuietly(local::closeEngine);
            closeQuietly(global::closeEngine);
            closeQuietly(replicator);
            closeQuietly(store);
            closeQuietly(metrics);
            group.close();
        }
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed: {}", c, e.toString());
        }
    }
}
