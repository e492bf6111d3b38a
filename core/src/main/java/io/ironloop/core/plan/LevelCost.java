package io.ironloop.core.plan;

import java.util.Objects;

/**
 * What one save and one restore of the whole job's state cost on a level, in seconds, and where the figure
 * came from ({@code given}, a bench file, or {@code assumed …}).
 *
 * @param checkpointSeconds the time one save takes (snapshot to kept), the job waiting on its slowest rank
 * @param recoverSeconds the time a restore from this level takes
 * @param source where the figures came from, for the plan's output
 */
public record LevelCost(double checkpointSeconds, double recoverSeconds, String source) {
    public LevelCost {
        if (!(checkpointSeconds > 0) || !(recoverSeconds >= 0) || Double.isInfinite(checkpointSeconds) || Double.isInfinite(recoverSeconds)) {
            throw new IllegalArgumentException("a level's save must cost a finite time > 0 and its restore a finite time >= 0, not "
                    + checkpointSeconds + " s and " + recoverSeconds + " s");
        }
        Objects.requireNonNull(source, "source");
    }

    /**
     * The cost from a bandwidth: {@code statePerRank / bytesPerSecond} for a level each rank writes on its own,
     * {@code ranks × statePerRank / bytesPerSecond} for one whose bandwidth every rank shares; the restore is
     * assumed to take as long as the save.
     */
    public static LevelCost fromBandwidth(PlanLevel level, long ranks, long statePerRank, double bytesPerSecond, String source) {
        double bytes = level.sharedBandwidth() ? (double) ranks * statePerRank : statePerRank;
        double seconds = bytes / bytesPerSecond;
        return new LevelCost(seconds, seconds, source);
    }
}
