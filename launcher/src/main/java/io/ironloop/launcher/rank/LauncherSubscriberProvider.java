package io.ironloop.launcher.rank;

import io.ironloop.runtime.event.EventSubscriberProvider;
import io.ironloop.runtime.event.RuntimeEvent;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * Subscribes the launcher to every runtime event stream of a rank started by {@code ironloop run}: found by
 * the runtime through {@link java.util.ServiceLoader}, it returns a {@link LauncherEvents} over this process's
 * control connection, or nothing in a process that the launcher did not start (no connection). The runtime
 * thus never names the launcher, and applications never reach for it.
 *
 * <p>The connection is this process's one, opened by {@link RankBootstrap} before the application's
 * {@code main} runs. Thread-safe.
 */
public final class LauncherSubscriberProvider implements EventSubscriberProvider {
    private static volatile LauncherLink link;
    /** The subscribers made so far (one per runtime loop: few), for {@link #flush}. */
    private static final java.util.List<LauncherEvents> subscribers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** For {@link java.util.ServiceLoader}. */
    public LauncherSubscriberProvider() {
    }

    @Override
    public Optional<Consumer<? super RuntimeEvent>> subscriber(IntSupplier currentRank) {
        return link().map(l -> {
            LauncherEvents events = new LauncherEvents(l, currentRank);
            subscribers.add(events);
            return events;
        });
    }

    /** Sends what the subscribers hold back (a block loop's last in-memory snapshots); called when the application ends. */
    static void flush() {
        subscribers.forEach(LauncherEvents::flush);
    }

    /** Records this process's link; called once, by {@link RankBootstrap}. */
    static void install(LauncherLink value) {
        link = Objects.requireNonNull(value, "link");
    }

    /** This process's link, when the launcher started it. */
    static Optional<LauncherLink> link() {
        return Optional.ofNullable(link);
    }
}
