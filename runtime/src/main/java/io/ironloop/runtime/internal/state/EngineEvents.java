package io.ironloop.runtime.internal.state;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvent.StateKind;
import io.ironloop.runtime.event.RuntimeEvents;

/**
 * The engines' reports as the runtime's typed events: a save's snapshot and its commit on disk, with the
 * series telling global state (either copy) from local. A line's {@link RuntimeEvent.Saved} on disk carries the
 * blocking time of its snapshot and the size of its file; the remote levels' copies carry no blocking (they are
 * made in the background). Thread-safe; called on the engines' threads.
 */
public final class EngineEvents implements EngineListener {
    /** Snapshots whose line is not durable yet, at most: the engines persist one or two lines at a time. */
    private static final int REMEMBERED = 32;

    private final RuntimeEvents events;
    private final CommittedLines committed;
    /** The blocking time of recent snapshots, by series and iteration, until their line is durable. */
    private final Map<String, Duration> blocking = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Duration> eldest) {
            return size() > REMEMBERED;
        }
    };

    /**
     * @param events where the events go
     * @param committed told of every durable line (the observers the modules on the class path provide)
     */
    public EngineEvents(RuntimeEvents events, CommittedLines committed) {
        this.events = events;
        this.committed = committed;
    }

    @Override
    public void checkpointSnapshotted(String series, long iteration, Duration blocking, long stagedBytes) {
        synchronized (this.blocking) {
            this.blocking.put(series + "@" + iteration, blocking);
        }
        events.publish(new RuntimeEvent.Snapshotted(kindOf(series), iteration, blocking, stagedBytes));
    }

    @Override
    public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
        Duration blocked;
        synchronized (blocking) {
            blocked = blocking.remove(line.series() + "@" + line.iteration());
        }
        String level = line.series().equals(GlobalState.COPY_SERIES) ? RuntimeEvent.Saved.DISK_COPY : RuntimeEvent.Saved.DISK;
        events.publish(new RuntimeEvent.Saved(kindOf(line.series()), line.iteration(), level, sinceStart,
                blocked == null ? Duration.ZERO : blocked, bytesWritten));
        committed.committed(line);
    }

    /** The remote levels' copies as the same events: a line committed on level {@code shared} or {@code s3}. */
    public LineReplicator.Listener remoteLevels() {
        return new LineReplicator.Listener() {
            @Override
            public void copied(String level, LineInfo line, Duration took, long bytes) {
                events.publish(new RuntimeEvent.Saved(kindOf(line.series()), line.iteration(), level, took, Duration.ZERO, bytes));
            }
        };
    }

    private static StateKind kindOf(String series) {
        return series.equals(GlobalState.SERIES) || series.equals(GlobalState.COPY_SERIES) ? StateKind.GLOBAL : StateKind.LOCAL;
    }
}
