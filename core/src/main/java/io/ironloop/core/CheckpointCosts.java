package io.ironloop.core;

import java.time.Duration;
import java.util.Optional;

/**
 * The measured costs of a level's recent checkpoints (snapshot to kept), as the adaptive interval reads them:
 * the mean of the last {@link #WINDOW}. A cost is recorded when it is known — for a line persisted in the
 * background, when the line is durable, which may be after later checkpoints were started — so nothing
 * reads a cost of zero for a checkpoint still in flight.
 *
 * <p>Thread-safe: a background writer records, the application's thread reads.
 */
public final class CheckpointCosts {
    /** How many recent costs the mean covers. */
    public static final int WINDOW = 5;

    private final long[] nanos = new long[WINDOW];
    private long count;

    /** Records the cost of one checkpoint. */
    public synchronized void record(Duration cost) {
        if (cost.isNegative()) {
            throw new IllegalArgumentException("a checkpoint cannot cost a negative time: " + cost);
        }
        nanos[(int) (count % WINDOW)] = cost.toNanos();
        count++;
    }

    /** The mean of the last {@link #WINDOW} costs, or empty while none was recorded. */
    public synchronized Optional<Duration> mean() {
        if (count == 0) {
            return Optional.empty();
        }
        int n = (int) Math.min(count, WINDOW);
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += nanos[i];
        }
        return Optional.of(Duration.ofNanos(sum / n));
    }

    /** How many costs were recorded in all. */
    public synchronized long count() {
        return count;
    }
}
