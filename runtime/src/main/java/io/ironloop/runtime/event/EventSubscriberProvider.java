package io.ironloop.runtime.event;

import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A service that subscribes to every rank's event stream without the runtime knowing it: the launcher
 * module provides one that reports to {@code ironloop run} when this process runs under it. Found through
 * {@link java.util.ServiceLoader} ({@code META-INF/services} on the class path, {@code provides} on the
 * module path) by {@link RuntimeEvents#withProvidedSubscribers}, once per stream, so the runtime never
 * reaches the layers above it.
 */
public interface EventSubscriberProvider {
    /**
     * The subscriber for one rank's stream, or nothing when the service has nothing to do in this process.
     * The subscriber must be quick and thread-safe ({@link RuntimeEvents}).
     *
     * @param currentRank this process's rank in its current group, read when an event is published
     */
    Optional<Consumer<? super RuntimeEvent>> subscriber(IntSupplier currentRank);
}
