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

    /**
     * Reports that a checkpoint was taken at {@code nowNanos}; {@code cost} is the newest cost known then (a
     * line persisted in the background is measured later: {@link #youngDaly} reads its costs from a
     * {@link CheckpointCosts} instead).
     */
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
     * Young/Daly's interval √(2·C·MTBF) ({@link Schedule#youngDaly}), where C is the mean of the recent costs
     * in {@code costs} — fed where costs are measured, such as {@link CheckpointEngine#costs()}, when a line is
     * durable — and MTBF the given one, fixed. The first checkpoint is due at once (it measures a cost); after it,
     * none is due until a cost is known.
     */
    static CheckpointPolicy youngDaly(CheckpointCosts costs, Duration mtbf) {
        return youngDaly(costs, MtbfEstimate.fixed(mtbf), System::nanoTime);
    }

    /**
     * {@link #youngDaly(CheckpointCosts, Duration)} with an MTBF that learns from failures and a starting
     * instant read from {@code nanoClock}.
     */
    static CheckpointPolicy youngDaly(CheckpointCosts costs, MtbfEstimate mtbf, LongSupplier nanoClock) {
        return new YoungDaly(costs, mtbf, nanoClock.getAsLong());
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

    /** See {@link #youngDaly(CheckpointCosts, Duration)}. */
    final class YoungDaly implements CheckpointPolicy {
        private final CheckpointCosts costs;
        private final MtbfEstimate mtbf;
        private long lastNanos;
        private boolean takenOne;

        YoungDaly(CheckpointCosts costs, MtbfEstimate mtbf, long startNanos) {
            this.costs = Objects.requireNonNull(costs, "costs");
            this.mtbf = Objects.requireNonNull(mtbf, "mtbf");
            this.lastNanos = startNanos;
        }

        /** The current interval, or empty while no cost has been measured. */
        public java.util.Optional<Duration> interval() {
            return costs.mean().map(c -> Schedule.youngDaly(c, mtbf.current()));
        }

        @Override
        public boolean due(long nowNanos) {
            return interval().map(i -> nowNanos - lastNanos >= i.toNanos()).orElse(!takenOne);
        }

        /** Remembers when; the cost comes from the costs given at construction, once it is measured. */
        @Override
        public void taken(long nowNanos, Duration cost) {
            lastNanos = nowNanos;
            takenOne = true;
        }
    }
}
