package io.ironloop.runtime.internal.trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.internal.state.GlobalState;
import io.ironloop.runtime.internal.state.LocalState;
import io.ironloop.runtime.trigger.TriggerAction;
import io.ironloop.runtime.trigger.TriggerEvent;

/**
 * What the runtime does when something threatens the run: a termination signal or preemption notice
 * ({@link #onTrigger}) saves the published local state durably, then a holder's published global state; a
 * member declared failed while heartbeat monitoring is on ({@link #onFailure}) makes this survivor save its
 * published local state at once, on a thread of its own, so the application's next group operation can throw
 * while the save goes on. {@link #close()} waits for that save.
 *
 * <p>Thread-safety: called from the group's failure detector, the trigger threads and the application thread.
 */
public final class TriggerReactions implements TriggerAction, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TriggerReactions.class);
    private static final Duration SAVE_WAIT = Duration.ofSeconds(60);

    private final ProcessGroup group;
    private final LocalState local;
    private final GlobalState global;
    private final RuntimeEvents events;
    private final ExecutorService saver = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ironloop-heartbeat-save");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean monitoring;
    private Future<?> failureSave;

    public TriggerReactions(ProcessGroup group, LocalState local, GlobalState global, RuntimeEvents events) {
        this.group = group;
        this.local = local;
        this.global = global;
        this.events = events;
    }

    /** Turns heartbeat reactions on; ranks already found failed are reacted to at once. */
    public void startMonitoring() {
        monitoring = true;
        if (!group.failedRanks().isEmpty()) {
            onFailure(group.failedRanks());
        }
    }

    /** Turns heartbeat reactions off. */
    public void stopMonitoring() {
        monitoring = false;
    }

    /** Members were declared failed: save the published local state once, in the background, if monitoring. */
    public void onFailure(Set<Integer> worldRanks) {
        if (!monitoring) {
            return;
        }
        synchronized (saver) {
            if (failureSave != null || saver.isShutdown()) {
                return;
            }
            long detected = System.currentTimeMillis();
            events.publish(new RuntimeEvent.FailureDetected(worldRanks));
            failureSave = saver.submit(() -> {
                try {
                    local.persist(true);
                    LOG.warn("rank {}: ranks {} failed; local state saved at iteration {} in {} ms", group.rank(), worldRanks,
                            local.publishedIteration(), System.currentTimeMillis() - detected);
                    events.publish(new RuntimeEvent.FailureSaved(worldRanks));
                } catch (RuntimeException e) {
                    LOG.error("rank {}: the local save after the failure of ranks {} failed: {}", group.rank(), worldRanks, e.toString());
                }
            });
        }
    }

    @Override
    public void onTrigger(TriggerEvent.Cause cause, Instant deadline) {
        LOG.warn("rank {}: {} — saving the published state before {}", group.rank(), cause, deadline);
        events.publish(new RuntimeEvent.TriggerFired(String.valueOf(cause), deadline.toString()));
        local.persist(true);
        global.persistDurably();
        events.publish(new RuntimeEvent.TriggerSaved(String.valueOf(cause)));
    }

    /**
     * Stops reacting; waits for a failure-triggered save in flight, then saves once more what was published
     * after it (a task may have finished meanwhile).
     */
    @Override
    public void close() {
        if (monitoring && !group.failedRanks().isEmpty()) {
            onFailure(group.failedRanks());
        }
        Future<?> pending;
        synchronized (saver) {
            pending = failureSave;
            saver.shutdown();
        }
        monitoring = false;
        if (pending == null) {
            return;
        }
        try {
            pending.get(SAVE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            local.persist(true);
        } catch (Exception e) {
            LOG.warn("rank {}: the failure-triggered save did not finish: {}", group.rank(), e.toString());
        }
    }

    /** Stops the saver without waiting (a start that failed). */
    public void abandon() {
        saver.shutdownNow();
    }
}
