package io.ironloop.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Decides when a checkpoint is due. Policies are stateful (they remember the last checkpoint) and meant
 * for one thread: the application's loop asks {@link #due}, and after a checkpoint the engine reports it
 * with {@link #taken}. Time comes from the caller (monotonic nanoseconds); the time-based policies read
 * their starting instant from a clock given when they are made ({@link System#nanoTime()} unless one is
 * injected), so tests need no sleeping.
 *
 * <p>Time gates count from the policy's construction until the first checkpoint, then from the last
 * checkpoint: {@code minInterval(30 s)} is first due 30 s after it was made, never at once.
 *
 * <p>DeLIA's gates map onto these, and the runtime ({@code io.ironloop.runtime.Ironloop}) builds its gates
 * from them: {@code CHECKPOINTING_GLOBAL_ITERATION} is {@link #everyCalls(long)}, {@code CHECKPOINTING_TIME_*}
 * are {@link #minInterval(Duration, LongSupplier)}, and "both must pass" is {@link #allOf}.
 */
public interface CheckpointPolicy {

    /** Whether a checkpoint is due now. */
    boolean due(long nowNanos);

    /** Reports that a checkpoint was taken at {@code nowNanos} and cost {@code cost} (snapshot to durable). */
    void taken(long nowNanos, Duration cost);

    /** Always due. */
    static CheckpointPolicy always() {
        return new CheckpointPolicy() {
            @Override
            public boolean due(long nowNanos) {
                return true;
            }

            @Override
            public void taken(long nowNanos, Duration cost) {
            }
        };
    }

    /** Never due (only an explicit checkpoint or a trigger saves). */
    static CheckpointPolicy never() {
        return new CheckpointPolicy() {
            @Override
            public boolean due(long nowNanos) {
                return false;
            }

            @Override
            public void taken(long nowNanos, Duration cost) {
            }
        };
    }

    /** Due on every {@code n}-th call of {@link #due} (the n-th, 2n-th, ...). */
    static CheckpointPolicy everyCalls(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("checkpoint every N calls needs N >= 1, not " + n);
        }
        return new CheckpointPolicy() {
            private long calls;

            @Override
            public boolean due(long nowNanos) {
                calls++;
                return calls % n == 0;
            }

            @Override
            public void taken(long nowNanos, Duration cost) {
            }
        };
    }

    /** Due when at least {@code gap} passed since the last checkpoint (or since the policy was made). */
    static CheckpointPolicy minInterval(Duration gap) {
        return minInterval(gap, System::nanoTime);
    }

    /**
     * Due when at least {@code gap} passed since the last checkpoint, or, before the first one, since the
     * policy was made as {@code nanoClock} tells.
     *
     * @param gap the minimum time between checkpoints; zero is always due
     * @param nanoClock the monotonic clock (nanoseconds) that the caller's {@code nowNanos} also comes from
     * @throws IllegalArgumentException if {@code gap} is negative
     */
    static CheckpointPolicy minInterval(Duration gap, LongSupplier nanoClock) {
        return new MinInterval(gap, nanoClock.getAsLong());
    }

    /**
     * Young/Daly's optimal interval √(2·C·MTBF), where C is the mean cost of the last five checkpoints
     * (snapshot to durable) and MTBF the given mean time between failures. Until a cost is known, due at once.
     */
    static CheckpointPolicy youngDaly(Duration mtbf) {
        return youngDaly(mtbf, System::nanoTime);
    }

    /** {@link #youngDaly(Duration)} with its starting instant read from {@code nanoClock}. */
    static CheckpointPolicy youngDaly(Duration mtbf, LongSupplier nanoClock) {
        return new YoungDaly(mtbf, nanoClock.getAsLong());
    }

    /** Due when {@code trigger} was set; reading it clears it. */
    static CheckpointPolicy onDemand(AtomicBoolean trigger) {
        Objects.requireNonNull(trigger, "trigger");
        return new CheckpointPolicy() {
            @Override
            public boolean due(long nowNanos) {
                return trigger.getAndSet(false);
            }

            @Override
            public void taken(long nowNanos, Duration cost) {
            }
        };
    }

    /** Due when every policy is due (DeLIA: "both gates must pass"). Every policy is asked on each call. */
    static CheckpointPolicy allOf(CheckpointPolicy... policies) {
        List<CheckpointPolicy> list = List.of(policies);
        return new CheckpointPolicy() {
            @Override
            public boolean due(long nowNanos) {
                boolean all = true;
                for (CheckpointPolicy p : list) {
                    all &= p.due(nowNanos);
                }
                return all;
            }

            @Override
            public void taken(long nowNanos, Duration cost) {
                list.forEach(p -> p.taken(nowNanos, cost));
            }
        };
    }

    /** Due when any policy is due. Every policy is asked on each call. */
    static CheckpointPolicy anyOf(CheckpointPolicy... policies) {
        List<CheckpointPolicy> list = List.of(policies);
        return new CheckpointPolicy() {
            @Override
            public boolean due(long nowNanos) {
                boolean any = false;
                for (CheckpointPolicy p : list) {
                    any |= p.due(nowNanos);
                }
                return any;
            }

            @Override
            public void taken(long nowNanos, Duration cost) {
                list.forEach(p -> p.taken(nowNanos, cost));
            }
        };
    }

    /** See {@link #minInterval(Duration)}. */
    final class MinInterval implements CheckpointPolicy {
        private final long gapNanos;
        private long lastNanos;

        MinInterval(Duration gap, long startNanos) {
            if (gap.isNegative()) {
                throw new IllegalArgumentException("minimum checkpoint interval must not be negative: " + gap);
            }
            this.gapNanos = gap.toNanos();
            this.lastNanos = startNanos;
        }

        @Override
        public boolean due(long nowNanos) {
            return nowNanos - lastNanos >= gapNanos;
        }

        @Override
        public void taken(long nowNanos, Duration cost) {
            lastNanos = nowNanos;
        }
    }

    /** See {@link #youngDaly(Duration)}. */
    final class YoungDaly implements CheckpointPolicy {
        private static final int WINDOW = 5;
        private final double mtbfSeconds;
        private final double[] costs = new double[WINDOW];
        private int count;
        private long lastNanos;

        YoungDaly(Duration mtbf, long startNanos) {
            if (mtbf.isZero() || mtbf.isNegative()) {
                throw new IllegalArgumentException("MTBF must be positive: " + mtbf);
            }
            this.mtbfSeconds = mtbf.toNanos() / 1e9;
            this.lastNanos = startNanos;
        }

        /** The current interval, or zero while no cost has been measured. */
        public Duration interval() {
            if (count == 0) {
                return Duration.ZERO;
            }
            double sum = 0;
            int n = Math.min(count, WINDOW);
            for (int i = 0; i < n; i++) {
                sum += costs[i];
            }
            return Duration.ofNanos((long) (Math.sqrt(2 * (sum / n) * mtbfSeconds) * 1e9));
        }

        @Override
        public boolean due(long nowNanos) {
            return nowNanos - lastNanos >= interval().toNanos();
        }

        @Override
        public void taken(long nowNanos, Duration cost) {
            costs[count % WINDOW] = cost.toNanos() / 1e9;
            count++;
            lastNanos = nowNanos;
        }
    }
}
