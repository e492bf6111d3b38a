package io.ironloop.core.plan;

import java.util.Objects;

/**
 * One level of a candidate chain: how often it saves and what it recovers.
 *
 * @param level the level
 * @param intervalSeconds Young/Daly's interval √(2·C·MTBF) for the failures this level recovers
 * @param costSeconds what one save costs (C)
 * @param recoverSeconds what one restore costs
 * @param failuresPerSecond the failures this level is the one to recover (the nearer levels cannot)
 * @param costSource where the cost came from
 */
public record LevelPlan(PlanLevel level, double intervalSeconds, double costSeconds, double recoverSeconds,
                        double failuresPerSecond, String costSource) {
    public LevelPlan {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(costSource, "costSource");
    }

    /** The MTBF of the failures this level recovers. */
    public double mtbfSeconds() {
        return 1 / failuresPerSecond;
    }

    /** Whether a save fits in its interval; when not, the level cannot keep up and the formula does not hold. */
    public boolean keepsUp() {
        return intervalSeconds > costSeconds;
    }

    /** Expected work lost by one failure this level recovers: half an interval, plus a save's time (a failure during a save falls back one line). */
    public double lostPerFailureSeconds() {
        return intervalSeconds / 2 + costSeconds;
    }
}
