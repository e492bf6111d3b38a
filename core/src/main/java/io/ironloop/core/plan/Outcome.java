package io.ironloop.core.plan;

/**
 * What a candidate costs a run, per day of the job's wall time: by formula ({@link Planner}) or as simulated
 * ({@link FailureSimulation}).
 *
 * @param overheadPct time spent saving, in percent of the run
 * @param lostWorkSecondsPerDay work redone after failures (from the restored save to the failure), seconds a day
 * @param recoverySecondsPerDay time spent restoring, seconds a day
 * @param failuresPerDay failures a day (each loses some work)
 * @param probabilityOfLosingWorkPerDay the probability that a day sees at least one failure
 */
public record Outcome(double overheadPct, double lostWorkSecondsPerDay, double recoverySecondsPerDay, double failuresPerDay,
                      double probabilityOfLosingWorkPerDay) {
    /** Seconds in a day. */
    public static final double DAY = 86_400;

    /** Everything a run loses to protection and failures, in percent: saving, redone work and restoring. */
    public double wastePct() {
        return overheadPct + 100 * (lostWorkSecondsPerDay + recoverySecondsPerDay) / DAY;
    }
}
