package io.ironloop.core;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The mean time between the failures one level covers: the configured MTBF, refined by the failures the
 * job has seen. The configured value counts as one failure's worth of evidence (the mean of a gamma prior
 * on the failure rate): after {@code k} failures in {@code T} of running, the estimate is
 * {@code (configured + T) / (1 + k)}. With no failure seen it starts at the configured value and grows
 * slowly with the time run; every failure pulls it towards what the job measured.
 *
 * <p>Thread-safe: a failure detector may report while the application's thread reads.
 */
public final class MtbfEstimate {
    private final Duration configured;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private long failures;

    /**
     * @param configured the MTBF from the parameters (positive)
     * @param nanoClock the monotonic clock the time run is measured on (the estimate starts now)
     * @throws IllegalArgumentException if {@code configured} is not positive
     */
    public MtbfEstimate(Duration configured, LongSupplier nanoClock) {
        if (configured.isZero() || configured.isNegative()) {
            throw new IllegalArgumentException("an MTBF must be positive, not " + configured);
        }
        this.configured = configured;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /** An estimate that starts now on {@link System#nanoTime()}. */
    public static MtbfEstimate startingAt(Duration configured) {
        return new MtbfEstimate(configured, System::nanoTime);
    }

    /** Counts one failure of the kind this estimate covers. */
    public synchronized void failureSeen() {
        failures++;
    }

    /** The failures counted so far. */
    public synchronized long failures() {
        return failures;
    }

    /** The current estimate: {@code (configured + time run) / (1 + failures)}. */
    public synchronized Duration current() {
        long run = Math.max(0, nanoClock.getAsLong() - startNanos);
        return configured.plusNanos(run).dividedBy(1 + failures);
    }

    /** The configured MTBF. */
    public Duration configured() {
        return configured;
    }
}
