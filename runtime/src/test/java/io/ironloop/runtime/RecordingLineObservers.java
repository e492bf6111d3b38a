package io.ironloop.runtime;

import io.ironloop.config.Parameters;
import io.ironloop.runtime.event.CommittedLineObserver;
import io.ironloop.runtime.event.RuntimeEvent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A provided observer of committed lines for the tests, found through {@code META-INF/services} like the sites module's:
 * while {@link #recording} is on, each loop started gets one that records {@code series@iteration} and then throws (an
 * observer that throws must not fail the line); off, it provides nothing.
 */
public final class RecordingLineObservers implements CommittedLineObserver.Provider {
    static volatile boolean recording;
    static final List<String> SEEN = new CopyOnWriteArrayList<>();

    @Override
    public Optional<CommittedLineObserver> observer(Parameters parameters, Consumer<RuntimeEvent> publish) {
        if (!recording) {
            return Optional.empty();
        }
        return Optional.of((series, iteration) -> {
            SEEN.add(series + "@" + iteration);
            throw new IllegalStateException("an observer that fails");
        });
    }
}
