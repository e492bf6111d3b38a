package io.ironloop.runtime.internal.state;

import io.ironloop.config.Parameters;
import io.ironloop.core.LineInfo;
import io.ironloop.runtime.event.CommittedLineObserver;
import io.ironloop.runtime.event.RuntimeEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The observers of a runtime loop's committed lines ({@link CommittedLineObserver}) that the modules on the class path
 * provide: the one place both loops (a block loop's disk level, the imperative API's engines) report a durable line to.
 * Thread-safe; an observer that throws is logged and never fails the line.
 */
public final class CommittedLines {
    private static final Logger LOG = LoggerFactory.getLogger(CommittedLines.class);
    /** No observer: nothing to tell. */
    public static final CommittedLines NONE = new CommittedLines(List.of());

    private final List<CommittedLineObserver> observers;

    private CommittedLines(List<CommittedLineObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /** The observers the providers on the class path give this loop; their events go to {@code events}. */
    public static CommittedLines provided(Parameters parameters, RuntimeEvents events) {
        List<CommittedLineObserver> found = new ArrayList<>();
        for (CommittedLineObserver.Provider provider : ServiceLoader.load(CommittedLineObserver.Provider.class)) {
            provider.observer(parameters, events::publish).ifPresent(found::add);
        }
        return found.isEmpty() ? NONE : new CommittedLines(found);
    }

    /** Tells every observer that {@code line} is committed and durable. Called on the engine's writer thread. */
    public void committed(LineInfo line) {
        for (CommittedLineObserver o : observers) {
            try {
                o.committed(line.series(), line.iteration());
            } catch (RuntimeException e) {
                LOG.warn("an observer of committed lines failed on {} (ignored; the line is committed): {}", line, e.toString(), e);
            }
        }
    }
}
