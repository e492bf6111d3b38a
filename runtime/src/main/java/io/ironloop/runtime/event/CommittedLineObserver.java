package io.ironloop.runtime.event;

import io.ironloop.config.Parameters;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Told of every line this rank commits on its disk level — a block loop's disk line, the imperative API's global and
 * local lines — as soon as it is durable, without the runtime knowing who listens: the sites module provides one that
 * tells the site's cluster protector at once, so that it ships the line without waiting for its next look at the store
 * (docs/sites.md, "Error masking in the ranks"). Found through {@link Provider} and {@link java.util.ServiceLoader}, once
 * per runtime loop.
 *
 * <p>Called on the engine's background writer thread: it must return at once (hand the work to a thread of its own) and
 * never throw; an exception it throws is logged and ignored, and never fails the line or the application's loop.
 */
@FunctionalInterface
public interface CommittedLineObserver {
    /**
     * A line of {@code series} at {@code iteration} is committed and durable in this rank's checkpoint folder.
     *
     * @param series the line's series ({@code rank-00003}, {@code global}, …)
     * @param iteration the iteration it holds
     */
    void committed(String series, long iteration);

    /**
     * A service that observes the lines a rank commits: found through {@link java.util.ServiceLoader}
     * ({@code META-INF/services} on the class path, {@code provides} on the module path).
     */
    interface Provider {
        /**
         * The observer for one runtime loop of this process, or nothing when the service has nothing to do here.
         *
         * @param parameters the loop's parameters
         * @param publish publishes an event of the observer's on the loop's event stream ({@link RuntimeEvents#publish}):
         *     how what it learns reaches the logs and the launcher's timeline; thread-safe
         */
        Optional<CommittedLineObserver> observer(Parameters parameters, Consumer<RuntimeEvent> publish);
    }
}
