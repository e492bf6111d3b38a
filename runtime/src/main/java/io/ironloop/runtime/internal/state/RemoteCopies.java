package io.ironloop.runtime.internal.state;

import java.io.IOException;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.IronloopException;
import io.ironloop.config.Parameters;
import io.ironloop.core.Store;
import io.ironloop.core.level.LineFallback;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.core.level.RemoteLevel;
import io.ironloop.core.level.RemoteLevels;
import io.ironloop.runtime.RuntimeKeys;

/**
 * A rank's remote levels (shared directory, object store; {@link io.ironloop.core.level.LevelKeys}) at start: before
 * its engines open, the lines of its own series that the checkpoint folder lacks are brought back level by level
 * (unless {@code FRESH}), so the restart path finds them where it always looks; then every line the engines commit
 * is copied in the background, starting with those a previous process committed but did not finish copying.
 */
public final class RemoteCopies {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteCopies.class);

    private RemoteCopies() {
    }

    /**
     * Opens the configured levels and brings back what {@code store} lacks of {@code series}.
     *
     * @return the replicator the engines report to (without levels when none is configured)
     * @throws io.ironloop.ConfigurationException when a level is misconfigured
     * @throws IronloopException when the local folder cannot be listed
     */
    public static LineReplicator open(Parameters p, Store store, List<String> series, LineReplicator.Listener listener) {
        List<RemoteLevel> levels = RemoteLevels.open(p);
        if (!levels.isEmpty() && !p.get(RuntimeKeys.FRESH)) {
            for (String s : series) {
                try {
                    LineFallback.fetchMissing(store, levels, s);
                } catch (IOException e) {
                    levels.forEach(RemoteLevel::close);
                    throw new IronloopException("cannot compare " + store.location() + " with the remote levels " + levels + " for series "
                            + s + ": " + e.getMessage(), e);
                }
            }
        }
        return new LineReplicator(store, levels, listener);
    }

    /** Queues the committed lines of {@code series} that a level does not hold yet (see {@link LineReplicator#catchUp}). */
    public static void catchUp(LineReplicator replicator, List<String> series) {
        for (String s : series) {
            try {
                replicator.catchUp(s);
            } catch (IOException e) {
                LOG.warn("cannot list series {} to catch the remote levels up; the next line is copied as usual: {}", s, e.toString());
            }
        }
    }
}
