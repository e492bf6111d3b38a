package io.ironloop.runtime.event;

import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's event stream of one rank: publishers call {@link #publish}, subscribers receive every
 * event on the publishing thread (the application's, a trigger's or a background writer's), so they must
 * be quick and thread-safe. A subscriber that throws is logged and never stops the others or the publisher.
 */
public final class RuntimeEvents {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeEvents.class);

    private final List<Consumer<? super RuntimeEvent>> subscribers = new CopyOnWriteArrayList<>();

    /**
     * A stream with only the subscribers that the modules on the class path provide
     * ({@link #subscribeProvided}): for an application that reports without a runtime loop (its own error, a
     * device example's saves).
     *
     * @param currentRank this process's rank in its current group
     */
    public static RuntimeEvents withProvidedSubscribers(IntSupplier currentRank) {
        RuntimeEvents events = new RuntimeEvents();
        events.subscribeProvided(currentRank);
        return events;
    }

    /**
     * Adds the subscribers that the modules on the class path provide ({@link EventSubscriberProvider}, found
     * through {@link ServiceLoader}): the launcher's, when this process runs under {@code ironloop run}. Every
     * runtime loop calls it once, after the application's own subscribers.
     *
     * @param currentRank this process's rank in its current group (after a shrink, the shrunk group's)
     */
    public void subscribeProvided(IntSupplier currentRank) {
        Objects.requireNonNull(currentRank, "currentRank");
        for (EventSubscriberProvider provider : ServiceLoader.load(EventSubscriberProvider.class)) {
            provider.subscriber(currentRank).ifPresent(this::subscribe);
        }
    }

    /** Adds a subscriber; it receives the events published from now on. */
    public void subscribe(Consumer<? super RuntimeEvent> subscriber) {
        subscribers.add(Objects.requireNonNull(subscriber, "subscriber"));
    }

    /** Hands {@code event} to every subscriber, in subscription order. */
    public void publish(RuntimeEvent event) {
        Objects.requireNonNull(event, "event");
        for (Consumer<? super RuntimeEvent> s : subscribers) {
            try {
                s.accept(event);
            } catch (RuntimeException e) {
                LOG.warn("an event subscriber failed on {}: {}", event, e.toString(), e);
            }
        }
    }
}
