package io.ironloop.launcher;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The timeline being recorded. Every event reaches the listener; all are stored except rank
 * {@code iteration} events beyond the first {@value #MAX_ITERATION_EVENTS}. Appended by the supervisor
 * thread only; {@link #snapshot()} may be read from any thread. The listener is called on the supervisor
 * thread and must be fast; its exceptions are reported on the launcher's standard error and ignored.
 */
final class Timeline {
    /** Rank {@code iteration} events kept; later ones reach the listener but are not stored, bounding memory. */
    static final int MAX_ITERATION_EVENTS = 10_000;

    private final List<TimelineEvent> events = new ArrayList<>();
    private int iterationEvents;
    private long droppedIterationEvents;
    private final Consumer<TimelineEvent> listener;
    private final LauncherLog log;

    Timeline(Consumer<TimelineEvent> listener, LauncherLog log) {
        this.listener = listener;
        this.log = log;
    }

    /** Records a supervisor event now. */
    TimelineEvent supervisor(int attempt, int rank, long pid, String type, Map<String, Object> fields) {
        return supervisor(Instant.now(), attempt, rank, pid, type, fields);
    }

    /** Records a supervisor event that happened at {@code time}. */
    TimelineEvent supervisor(Instant time, int attempt, int rank, long pid, String type, Map<String, Object> fields) {
        return add(new TimelineEvent(time, TimelineEvent.Source.SUPERVISOR, attempt, rank, pid, type, fields));
    }

    /** Records an event. */
    TimelineEvent add(TimelineEvent event) {
        synchronized (events) {
            boolean iteration = event.source() == TimelineEvent.Source.RANK && "iteration".equals(event.type());
            if (iteration && iterationEvents >= MAX_ITERATION_EVENTS) {
                droppedIterationEvents++;
            } else {
                iterationEvents += iteration ? 1 : 0;
                events.add(event);
            }
        }
        try {
            listener.accept(event);
        } catch (RuntimeException e) {
            log.warn("timeline listener failed on " + event.type() + ": " + e);
        }
        return event;
    }

    /**
     * Event fields in the given order.
     *
     * @param keysAndValues alternating names and values; a null value leaves the field out
     */
    static Map<String, Object> fields(Object... keysAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null) {
                out.put((String) keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return out;
    }

    /** How many rank {@code iteration} events were not stored (beyond {@link #MAX_ITERATION_EVENTS}). */
    long droppedIterationEvents() {
        synchronized (events) {
            return droppedIterationEvents;
        }
    }

    /** A copy of the events so far. */
    List<TimelineEvent> snapshot() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }
}
