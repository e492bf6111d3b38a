package io.ironloop.core.level;

import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Schedule;
import io.ironloop.core.Store;
import io.ironloop.core.internal.LineCatalog;
import io.ironloop.core.internal.Retention;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps copies of the committed lines of a local store on {@link RemoteLevel}s, asynchronously: when the engine
 * reports a line durable ({@link #listening}), each level's own background thread copies it (see
 * {@link LineFiles}: referenced files, data file, then the commit record), applies the level's retention and
 * removes what a killed writer left unfinished in the series ({@link Store#removeTemporaries}: stray temporaries,
 * open multipart uploads).
 * The application never waits for a remote level; a level that fails is logged and reported, and the next
 * line tries again. {@link #catchUp} copies what a previous process committed locally but did not finish
 * copying (an upload interrupted by a crash is resumed where the level's store can, see
 * {@link Store#copyFrom}).
 *
 * <p>Threading: thread-safe; each level is written by one thread, in the order lines were submitted (a line is
 * skipped when a newer one of its series was submitted before the level reached it).
 * {@link #close()} waits for the copies already submitted.
 */
public final class LineReplicator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LineReplicator.class);

    /** Observes the copies; called on the levels' threads; must be fast and never throw. */
    public interface Listener {
        /** A listener that ignores everything. */
        Listener NONE = new Listener() {
        };

        /**
         * {@code line} is committed on {@code level} (its commit record is published there); {@code took} is the copy's
         * time. The level's retention of older lines follows on the same thread, after this call.
         */
        default void copied(String level, LineInfo line, Duration took, long bytes) {
        }

        /** {@code line} could not be copied to {@code level}; the level keeps its earlier lines. */
        default void copyFailed(String level, LineInfo line, Throwable cause) {
        }
    }

    private final Store local;
    private final List<RemoteLevel> levels;
    private final List<ExecutorService> threads = new ArrayList<>();
    /** Per level: the newest line number submitted for each series; an older line still queued is skipped. */
    private final List<Map<String, Long>> newest = new ArrayList<>();
    /** Per level and series: lines offered so far, and when the level last took one ({@link System#nanoTime}). */
    private final List<Map<String, long[]>> offered = new ArrayList<>();
    private final Listener listener;

    /**
     * @param local the store the engines write
     * @param levels the remote levels, nearest first
     * @param listener told of every copy
     */
    public LineReplicator(Store local, List<RemoteLevel> levels, Listener listener) {
        this.local = Objects.requireNonNull(local, "local");
        this.levels = List.copyOf(levels);
        this.listener = Objects.requireNonNull(listener, "listener");
        for (RemoteLevel l : this.levels) {
            newest.add(new ConcurrentHashMap<>());
            offered.add(new ConcurrentHashMap<>());
            threads.add(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "ironloop-level-" + l.name());
                t.setDaemon(true);
                return t;
            }));
        }
    }

    /** The levels, nearest first. */
    public List<RemoteLevel> levels() {
        return levels;
    }

    /** An engine listener that passes everything to {@code next} and submits every durable line for copying. */
    public EngineListener listening(EngineListener next) {
        Objects.requireNonNull(next, "next");
        return new EngineListener() {
            @Override
            public void checkpointStarted(String series, long iteration) {
                next.checkpointStarted(series, iteration);
            }

            @Override
            public void checkpointSnapshotted(String series, long iteration, Duration blocking, long stagedBytes) {
                next.checkpointSnapshotted(series, iteration, blocking, stagedBytes);
            }

            @Override
            public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                next.checkpointDurable(line, sinceStart, bytesWritten);
                submit(line);
            }

            @Override
            public void checkpointFailed(String series, long iteration, Throwable cause) {
                next.checkpointFailed(series, iteration, cause);
            }

            @Override
            public void restoreStarted(String series) {
                next.restoreStarted(series);
            }

            @Override
            public void restoreFinished(String series, LineInfo line, Duration took) {
                next.restoreFinished(series, line, took);
            }

            @Override
            public void restoreFellBack(LineInfo line, Throwable cause) {
                next.restoreFellBack(line, cause);
            }

            @Override
            public void restoreSkippedRecord(String commitFile, Throwable cause) {
                next.restoreSkippedRecord(commitFile, cause);
            }

            @Override
            public void restoreFailed(String series, Throwable cause) {
                next.restoreFailed(series, cause);
            }
        };
    }

    /**
     * Queues {@code line} (committed in the local store) for copying to every level. A level that has not started an
     * older line of the same series by then skips it: a slow level always works on the newest line.
     */
    public void submit(LineInfo line) {
        for (int i = 0; i < levels.size(); i++) {
            if (takes(i, line)) {
                enqueue(i, line);
            }
        }
    }

    /** Whether level {@code i}'s schedule takes {@code line}: every N-th line of a series, or the first after each interval. */
    private boolean takes(int i, LineInfo line) {
        Schedule every = levels.get(i).every();
        long[] seen = offered.get(i).computeIfAbsent(line.series(), s -> new long[] {0, Long.MIN_VALUE});
        synchronized (seen) {
            long chance = seen[0]++;
            boolean due;
            if (every instanceof Schedule.Every e) {
                due = chance % e.n() == 0;
            } else if (every instanceof Schedule.EveryTime t) {
                due = seen[1] == Long.MIN_VALUE || System.nanoTime() - seen[1] >= t.interval().toNanos();
            } else {
                due = !(every instanceof Schedule.Never); // adaptive is refused by RemoteLevel
            }
            if (due) {
                seen[1] = System.nanoTime();
            } else {
                LOG.debug("level '{}' ({}) does not take line {} of {}", levels.get(i).name(), every, line.sequence(), line.series());
            }
            return due;
        }
    }

    private void enqueue(int level, LineInfo line) {
        newest.get(level).merge(line.series(), line.sequence(), Math::max);
        threads.get(level).execute(() -> copy(levels.get(level), newest.get(level), line));
    }

    /**
     * Queues the newest committed local line of {@code series} for every level that does not hold it yet: what a
     * process killed while copying left unfinished (an interrupted upload is resumed where the store can).
     */
    public void catchUp(String series) throws IOException {
        List<LineInfo> lines = LineCatalog.committed(local, series, (name, e) -> { });
        if (!lines.isEmpty()) {
            submit(lines.get(lines.size() - 1));
        }
    }

    private void copy(RemoteLevel level, Map<String, Long> newestOfLevel, LineInfo line) {
        if (line.sequence() < newestOfLevel.getOrDefault(line.series(), line.sequence())) {
            LOG.debug("level '{}' skips line {} of {}: a newer line is queued", level.name(), line.sequence(), line.series());
            return;
        }
        long start = System.nanoTime();
        try {
            long bytes = LineFiles.copy(line, local, level.store(), level.bytesPerSecond(), true);
            if (bytes == 0) {
                return; // the level already held it
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            LOG.debug("line {} of {} (iteration {}) committed on level '{}' in {} ms", line.sequence(), line.series(),
                    line.iteration(), level.name(), took.toMillis());
            listener.copied(level.name(), line, took, bytes); // committed there: the clean-up below is not part of the copy
        } catch (NoSuchFileException e) {
            LOG.warn("line {} of {} was not copied to level '{}': the local store no longer holds {} (removed by retention before"
                    + " the level caught up: the level is slower than the checkpoints)", line.sequence(), line.series(), level.name(),
                    e.getFile());
            listener.copyFailed(level.name(), line, e);
            return;
        } catch (IOException | RuntimeException e) {
            LOG.warn("line {} of {} was not copied to level '{}' ({}): {}; the level keeps its earlier lines, the next line tries"
                    + " again", line.sequence(), line.series(), level.name(), level.store().location(), e.toString());
            listener.copyFailed(level.name(), line, e);
            return;
        }
        try {
            new Retention().apply(level.store(), line.series(), line.settingsFingerprint(), level.retainLines());
            // this thread is the series' only writer on the level and has just finished: whatever is still being
            // written there was left by a killed process (after catch-up resumed what it could)
            level.store().removeTemporaries(line.series());
        } catch (IOException | RuntimeException e) {
            LOG.warn("line {} of {} is committed on level '{}' ({}), but removing older lines or stray temporaries there failed: {};"
                    + " the next line tries again", line.sequence(), line.series(), level.name(), level.store().location(), e.toString());
        }
    }

    /**
     * Waits until every copy submitted so far has ended (committed or failed), at most {@code timeout}.
     *
     * @return whether they all ended in time
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Future<?>> marks = new ArrayList<>();
        for (ExecutorService t : threads) {
            marks.add(t.submit(() -> { }));
        }
        for (Future<?> f : marks) {
            try {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw new IllegalStateException("an empty task failed", e);
            } catch (TimeoutException e) {
                return false;
            }
        }
        return true;
    }

    /** Waits for the copies already submitted, then closes the levels. */
    @Override
    public void close() {
        for (ExecutorService t : threads) {
            t.shutdown();
        }
        try {
            for (int i = 0; i < threads.size(); i++) {
                if (!threads.get(i).awaitTermination(10, TimeUnit.MINUTES)) {
                    LOG.warn("level '{}' did not finish its copies within 10 minutes; leaving them", levels.get(i).name());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            levels.forEach(RemoteLevel::close);
        }
    }
}
