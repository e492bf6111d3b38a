package io.ironloop.core;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The mean time between the failures one level covers: the configured MTBF, either {@link #fixed} or
 * {@link #learning} from the failures the job has seen. A learning estimate counts the configured value as one
 * failure's worth of evidence (the mean of a gamma prior on the failure rate): after {@code k} failures in
 * {@code T} of running it is {@code (configured + T) / (1 + k)}. It starts at the configured value and grows
 * slowly while nothing fails; every failure pulls it towards what the job measured.
 *
 * <p>Thread-safe: a failure detector may report while the application's thread reads.
 */
public final class MtbfEstimate {
    private final Duration configured;
    private final LongSupplier nanoClock; // null: fixed
    private final long startNanos;
    private long failures;

    private MtbfEstimate(Duration configured, LongSupplier nanoClock) {
        if (configured.isZero() || configured.isNegative()) {
            throw new IllegalArgumentException("an MTBF must be positive, not " + configured);
        }
        this.configured = configured;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock == null ? 0 : nanoClock.getAsLong();
    }

    /**
     * An estimate that learns from failures, starting now.
     *
     * @param configured the MTBF from the parameters (positive)
     * @param nanoClock the monotonic clock the time run is measured on
     * @throws IllegalArgumentException if {@code configured} is not positive
     */
    public static MtbfEstimate learning(Duration configured, LongSupplier nanoClock) {
        return new MtbfEstimate(configured, java.util.Objects.requireNonNull(nanoClock, "nanoClock"));
    }

    /**
     * An estimate that stays at {@code mtbf} (failures are counted, not used).
     *
     * @throws IllegalArgumentException if {@code mtbf} is not positive
     */
    public static MtbfEstimate fixed(Duration mtbf) {
        return new MtbfEstimate(mtbf, null);
    }

    /** Counts one failure of the kind this estimate covers. */
    public synchronized void failureSeen() {
        failures++;
    }

    /** The failures counted so far. */
    public synchronized long failures() {
        return failures;
    }

    /** The current estimate: the configured MTBF, or, learning, {@code (configured + time run) / (1 + failures)}. */
    public synchronized Duration current() {
        if (nanoClock == null) {
            return configured;
        }
        long run = Math.max(0, nanoClock.getAsLong() - startNanos);
        return configured.plusNanos(run).dividedBy(1 + failures);
    }

    /** The configured MTBF. */
    public Duration configured() {
        return configured;
    }
}
