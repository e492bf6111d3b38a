package io.ironloop.runtime.internal.state;

import java.time.Duration;

import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvent.StateKind;
import io.ironloop.runtime.event.RuntimeEvents;

/**
 * The engines' reports as the runtime's typed events: a save's snapshot and its commit on disk, with the
 * series telling global state (either copy) from local. Stateless; called on the engines' threads.
 */
public final class EngineEvents implements EngineListener {
    private final RuntimeEvents events;

    public EngineEvents(RuntimeEvents events) {
        this.events = events;
    }

    @Override
    public void checkpointSnapshotted(String series, long iteration, Duration blocking, long stagedBytes) {
        events.publish(new RuntimeEvent.Snapshotted(kindOf(series), iteration, blocking, stagedBytes));
    }

    @Override
    public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
        String level = line.series().equals(GlobalState.COPY_SERIES) ? RuntimeEvent.Saved.DISK_COPY : RuntimeEvent.Saved.DISK;
        events.publish(new RuntimeEvent.Saved(kindOf(line.series()), line.iteration(), level, sinceStart));
    }

    /** The remote levels' copies as the same events: a line committed on level {@code shared} or {@code s3}. */
    public LineReplicator.Listener remoteLevels() {
        return new LineReplicator.Listener() {
            @Override
            public void copied(String level, LineInfo line, Duration took, long bytes) {
                events.publish(new RuntimeEvent.Saved(kindOf(line.series()), line.iteration(), level, took));
            }
        };
    }

    private static StateKind kindOf(String series) {
        return series.equals(GlobalState.SERIES) || series.equals(GlobalState.COPY_SERIES) ? StateKind.GLOBAL : StateKind.LOCAL;
    }
}
