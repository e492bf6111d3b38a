package io.ironloop.cli.view;

import io.ironloop.launcher.TimelineEvent;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoints of a run level by level, folded from its {@code saved} events: how many saves, the bytes the level
 * holds of them, the time they blocked the application's threads, and the overhead that is so far. The one place
 * where the dashboard ({@link RunState}) and the launcher's metrics ({@link LauncherMetrics}) read those events.
 *
 * <p>A {@code saved} event counts as {@code saves} saves (1 when absent); its {@code blocking_s} and {@code bytes}
 * are sums over them. Events without them (timeline files written before the ranks reported costs, applications that
 * report their own saves) count as saves whose cost is unknown: a level none of whose saves had costs reports none.
 * Not thread-safe: its owners lock.
 */
final class LevelCosts {
    /** One level's figures so far. */
    static final class Level {
        long saves;
        long bytes;
        double blockingSeconds;
        /** Whether any save of the level reported its cost. */
        boolean costs;
        long iteration = -1;
        Instant last;

        /** The share of the ranks' time their saves on this level blocked them (per-rank average). */
        double overhead(double elapsedSeconds, int ranks) {
            return LevelCosts.overhead(blockingSeconds, elapsedSeconds, ranks);
        }
    }

    private final Map<String, Level> levels = new TreeMap<>();

    /**
     * Folds a {@code saved} event in.
     *
     * @return the level it counted for
     */
    Level add(TimelineEvent saved) {
        Level l = levels.computeIfAbsent(String.valueOf(saved.fields().get("level")), k -> new Level());
        l.saves += Math.max(1, saved.longField("saves").orElse(1));
        if (saved.fields().get("blocking_s") instanceof Number || saved.fields().get("bytes") instanceof Number) {
            l.costs = true;
            l.blockingSeconds += Math.max(0, saved.doubleField("blocking_s").orElse(0));
            l.bytes += Math.max(0, saved.longField("bytes").orElse(0));
        }
        l.iteration = Math.max(l.iteration, saved.longField("iteration").orElse(-1));
        l.last = saved.time();
        return l;
    }

    /** The levels by name. */
    Map<String, Level> levels() {
        return Collections.unmodifiableMap(levels);
    }

    /** Saves on every level. */
    long saves() {
        return levels.values().stream().mapToLong(l -> l.saves).sum();
    }

    /** Blocking time of every level, in seconds: what the saves cost the application (levels do not overlap). */
    double blockingSeconds() {
        return levels.values().stream().mapToDouble(l -> l.blockingSeconds).sum();
    }

    /**
     * The overhead so far: blocking time over the ranks' elapsed time, {@code blocking / (elapsed × ranks)}.
     *
     * @return the fraction, 0 before any time elapsed or without ranks
     */
    static double overhead(double blockingSeconds, double elapsedSeconds, int ranks) {
        return elapsedSeconds <= 0 || ranks <= 0 ? 0 : blockingSeconds / (elapsedSeconds * ranks);
    }
}
