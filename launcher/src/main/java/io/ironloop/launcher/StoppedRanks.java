package io.ironloop.launcher;

import io.ironloop.config.Units;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Which ranks of an attempt are stopped by job control (SIGSTOP) and must be killed. A stopped rank runs no
 * code, so it can neither save, exit, nor handle SIGTERM: it is killed (SIGKILL, which a stopped process
 * cannot resist) at once when the attempt is ending anyway or another rank reported it failed, and otherwise
 * once it has stayed stopped for {@link #STOPPED_LIMIT}, since the other ranks wait for it in every
 * collective. This class keeps the clocks and decides; {@link JobAttempt} kills. Supervisor thread only.
 */
final class StoppedRanks {
    /** How often live ranks are checked for being stopped. */
    static final Duration STOP_CHECK = Duration.ofMillis(500);
    /** How long a rank may stay stopped while the attempt is running normally before it is killed. */
    static final Duration STOPPED_LIMIT = Duration.ofSeconds(10);
    /** A gap this long between two checks means the launcher itself was stopped (Ctrl-Z stops the whole job). */
    private static final Duration LAUNCHER_PAUSED = STOP_CHECK.multipliedBy(4);

    /** A stopped rank to kill now: how long it has been seen stopped, and why it is killed. */
    record Kill(int rank, Duration stopped, String reason) {
    }

    private final RankProcess[] ranks;
    private final Instant[] since;
    private final Set<Integer> killed = new HashSet<>();
    private Instant lastCheck;

    StoppedRanks(RankProcess[] ranks) {
        this.ranks = ranks;
        this.since = new Instant[ranks.length];
    }

    /** Whether rank {@code r} was killed for being stopped. */
    boolean killed(int r) {
        return killed.contains(r);
    }

    /**
     * The stopped ranks to kill now among those {@code running} (not yet exited): all of them when
     * {@code ending} names why the attempt is ending, otherwise those stopped for {@link #STOPPED_LIMIT}.
     * Checks at most every {@link #STOP_CHECK} unless {@code force}d. Each rank returned counts as killed.
     */
    List<Kill> due(Instant now, boolean force, String ending, IntPredicate running) {
        if (!force && lastCheck != null && Duration.between(lastCheck, now).compareTo(STOP_CHECK) < 0) {
            return List.of();
        }
        if (lastCheck != null && Duration.between(lastCheck, now).compareTo(LAUNCHER_PAUSED) > 0) {
            // the launcher was stopped too (or starved): a rank seen stopped before may have been stopped with it
            Arrays.fill(since, null);
        }
        lastCheck = now;
        List<Kill> kills = new ArrayList<>();
        for (int r = 0; r < ranks.length; r++) {
            if (!running.test(r) || killed.contains(r) || !ranks[r].isAlive()) {
                continue;
            }
            if (!ranks[r].isStopped()) {
                since[r] = null;
                continue;
            }
            if (since[r] == null) {
                since[r] = now;
            }
            Duration stopped = Duration.between(since[r], now);
            if (ending != null) {
                kills.add(kill(r, stopped, ending));
            } else if (stopped.compareTo(STOPPED_LIMIT) >= 0) {
                kills.add(kill(r, stopped, "it stayed stopped for " + Units.formatDuration(STOPPED_LIMIT)
                        + " and the other ranks wait for it"));
            }
        }
        return kills;
    }

    /** Rank {@code r}, reported failed by {@code reporter}, to kill now if it is stopped: it is hung, not slow. */
    Optional<Kill> reportedFailed(int r, int reporter, Instant now) {
        if (killed.contains(r) || !ranks[r].isAlive() || !ranks[r].isStopped()) {
            return Optional.empty();
        }
        return Optional.of(kill(r, since[r] == null ? Duration.ZERO : Duration.between(since[r], now),
                "rank " + reporter + " reported it failed"));
    }

    private Kill kill(int r, Duration stopped, String reason) {
        killed.add(r);
        return new Kill(r, stopped, reason);
    }
}
