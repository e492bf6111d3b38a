package io.ironloop.runtime.internal.state;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * DeLIA's frequency gates: an optional every-N-th-call gate and any number of minimum-interval gates; a
 * save is due when every configured gate passes. With no gate configured, {@link #whenUnconfigured()} decides.
 * Not thread-safe.
 */
public final class SaveGate {
    private final Long everyCalls;
    private final List<Duration> minIntervals;
    private final boolean whenUnconfigured;
    private long lastSaveNanos;
    private boolean saved;

    /**
     * @param everyCalls save on every N-th call, or empty
     * @param minIntervals minimum times between saves (empty entries are ignored)
     * @param whenUnconfigured whether a call is due when no gate is configured
     */
    public SaveGate(Optional<Long> everyCalls, List<Optional<Duration>> minIntervals, boolean whenUnconfigured) {
        this.everyCalls = everyCalls.orElse(null);
        List<Duration> m = new ArrayList<>();
        minIntervals.forEach(o -> o.ifPresent(m::add));
        this.minIntervals = List.copyOf(m);
        this.whenUnconfigured = whenUnconfigured;
    }

    /** Whether no gate is configured. */
    public boolean unconfigured() {
        return everyCalls == null && minIntervals.isEmpty();
    }

    /** What an unconfigured gate answers. */
    public boolean whenUnconfigured() {
        return whenUnconfigured;
    }

    /**
     * Whether call number {@code call} (1-based) at {@code nowNanos} is due; marks a due call as taken.
     */
    public boolean due(long call, long nowNanos) {
        if (unconfigured()) {
            return whenUnconfigured;
        }
        if (everyCalls != null && call % everyCalls != 0) {
            return false;
        }
        if (saved) {
            for (Duration d : minIntervals) {
                if (nowNanos - lastSaveNanos < d.toNanos()) {
                    return false;
                }
            }
        }
        saved = true;
        lastSaveNanos = nowNanos;
        return true;
    }
}
