package io.ironloop.core.plan;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a plan is made for: the job's size and state, how often its parts fail, and what each level costs.
 * Immutable; made by {@link #builder()}.
 *
 * @param ranks processes of the job
 * @param ranksPerNode processes per node (a node's loss loses them all)
 * @param nodesPerRack nodes per rack (a rack's loss loses them all)
 * @param statePerRank bytes of protected state per rank
 * @param mtbfNode mean time between failures of one node
 * @param mtbfRack mean time between failures of one rack, if rack failures are weighed
 * @param mtbfJob mean time between failures that kill the whole job at once, if weighed
 * @param groupSize nodes per XOR group, and data nodes per Reed–Solomon group
 * @param parity Reed–Solomon parity nodes per group (losses it survives)
 * @param costs what a save and a restore cost on every level
 */
public record PlanInput(long ranks, int ranksPerNode, int nodesPerRack, long statePerRank, Duration mtbfNode,
                        Optional<Duration> mtbfRack, Optional<Duration> mtbfJob, int groupSize, int parity,
                        Map<PlanLevel, LevelCost> costs) {
    public PlanInput {
        costs = Collections.unmodifiableMap(new EnumMap<>(costs));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Nodes of the job: ranks over ranks per node, rounded up. */
    public long nodes() {
        return (ranks + ranksPerNode - 1) / ranksPerNode;
    }

    /** Racks of the job: nodes over nodes per rack, rounded up. */
    public long racks() {
        return (nodes() + nodesPerRack - 1) / nodesPerRack;
    }

    /** Failures per second of {@code kind} over the whole job (0 when that kind is not weighed). */
    public double ratePerSecond(FailureKind kind) {
        return switch (kind) {
            case NODE -> nodes() / seconds(mtbfNode);
            case RACK -> mtbfRack.map(m -> racks() / seconds(m)).orElse(0.0);
            case JOB -> mtbfJob.map(m -> 1 / seconds(m)).orElse(0.0);
        };
    }

    /** Nodes in one group of an in-memory level. */
    public int groupNodes(PlanLevel level) {
        return switch (level) {
            case PARTNER -> 2;
            case XOR -> groupSize;
            case RS -> groupSize + parity;
            default -> 1;
        };
    }

    /** Losses within one group an in-memory level survives. */
    public int tolerates(PlanLevel level) {
        return level == PlanLevel.RS ? parity : 1;
    }

    static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /** Builds a {@link PlanInput}; levels without a cost get one from their assumed bandwidth. */
    public static final class Builder {
        private long ranks;
        private int ranksPerNode = 1;
        private int nodesPerRack = 32;
        private long statePerRank;
        private Duration mtbfNode;
        private Duration mtbfRack;
        private Duration mtbfJob;
        private int groupSize = 8;
        private int parity = 2;
        private final Map<PlanLevel, LevelCost> costs = new EnumMap<>(PlanLevel.class);

        private Builder() {
        }

        public Builder ranks(long n) {
            this.ranks = positive(n, "ranks");
            return this;
        }

        public Builder ranksPerNode(int n) {
            this.ranksPerNode = (int) positive(n, "ranks per node");
            return this;
        }

        public Builder nodesPerRack(int n) {
            this.nodesPerRack = (int) positive(n, "nodes per rack");
            return this;
        }

        public Builder statePerRank(long bytes) {
            this.statePerRank = positive(bytes, "state per rank (bytes)");
            return this;
        }

        public Builder mtbfNode(Duration d) {
            this.mtbfNode = positive(d, "node MTBF");
            return this;
        }

        public Builder mtbfRack(Duration d) {
            this.mtbfRack = positive(d, "rack MTBF");
            return this;
        }

        public Builder mtbfJob(Duration d) {
            this.mtbfJob = positive(d, "job MTBF");
            return this;
        }

        /** Nodes per XOR group and data nodes per Reed–Solomon group (at least 2). */
        public Builder groupSize(int k) {
            if (k < 2) {
                throw new IllegalArgumentException("an erasure-coded group needs at least 2 nodes, not " + k);
            }
            this.groupSize = k;
            return this;
        }

        /** Reed–Solomon parity nodes per group. */
        public Builder parity(int m) {
            this.parity = (int) positive(m, "Reed-Solomon parity");
            return this;
        }

        /**
         * The measured or known cost of {@code level}.
         *
         * @throws IllegalStateException if the level's cost was already given
         */
        public Builder cost(PlanLevel level, LevelCost cost) {
            if (costs.putIfAbsent(Objects.requireNonNull(level, "level"), Objects.requireNonNull(cost, "cost")) != null) {
                throw new IllegalStateException("the cost of level " + level.label() + " is given twice");
            }
            return this;
        }

        /**
         * Builds the input; levels without a given cost get {@link LevelCost#fromBandwidth} at their assumed bandwidth.
         *
         * @throws IllegalStateException if ranks, state per rank or the node MTBF is missing
         */
        public PlanInput build() {
            if (ranks == 0 || statePerRank == 0 || mtbfNode == null) {
                throw new IllegalStateException("a plan needs the ranks, the state per rank and the node MTBF");
            }
            Map<PlanLevel, LevelCost> all = new EnumMap<>(costs);
            for (PlanLevel l : PlanLevel.values()) {
                all.computeIfAbsent(l, k -> LevelCost.fromBandwidth(k, ranks, statePerRank, k.assumedBytesPerSecond(),
                        String.format("assumed %.3g GB/s%s", k.assumedBytesPerSecond() / 1e9, k.sharedBandwidth() ? " shared by all ranks" : " per rank")));
            }
            return new PlanInput(ranks, ranksPerNode, nodesPerRack, statePerRank, mtbfNode, Optional.ofNullable(mtbfRack),
                    Optional.ofNullable(mtbfJob), groupSize, parity, all);
        }

        private static long positive(long v, String what) {
            if (v < 1) {
                throw new IllegalArgumentException(what + " must be at least 1, not " + v);
            }
            return v;
        }

        private static Duration positive(Duration d, String what) {
            if (d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException(what + " must be positive, not " + d);
            }
            return d;
        }
    }
}
