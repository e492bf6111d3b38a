package io.ironloop.runtime.blocks;

import java.util.Arrays;

/**
 * Assigns blocks to the ranks that compute (the <em>active</em> ranks, spares excluded), at start and after
 * every loss. Every rank evaluates it alike. Results never depend on the assignment (the loop routes halos
 * and reduces in block order), so a balancer only decides speed.
 */
@FunctionalInterface
public interface Balancer {

    /**
     * @param blockCount the number of blocks
     * @param previous for each block, the index (into {@code 0 … ranks-1}) of the active rank that keeps it,
     *     or -1 when its owner was lost; null at start
     * @param ranks the number of active ranks
     * @return for each block, the index of its active rank
     */
    int[] assign(int blockCount, int[] previous, int ranks);

    /**
     * Contiguous ranges of block ids at start (row-major ranges on a grid); after a loss, every surviving
     * rank keeps its blocks and each lost block goes to the least loaded rank (ties: the lowest), in id
     * order — so only the lost blocks move.
     */
    static Balancer greedy() {
        return (blockCount, previous, ranks) -> {
            int[] owner = new int[blockCount];
            if (previous == null) {
                for (int b = 0; b < blockCount; b++) {
                    owner[b] = (int) ((long) b * ranks / blockCount);
                }
                return owner;
            }
            int[] load = new int[ranks];
            for (int b = 0; b < blockCount; b++) {
                owner[b] = previous[b];
                if (owner[b] >= 0) {
                    load[owner[b]]++;
                }
            }
            for (int b = 0; b < blockCount; b++) {
                if (owner[b] < 0) {
                    int best = 0;
                    for (int r = 1; r < ranks; r++) {
                        if (load[r] < load[best]) {
                            best = r;
                        }
                    }
                    owner[b] = best;
                    load[best]++;
                }
            }
            return owner;
        };
    }

    /** Contiguous ranges of block ids, recomputed from scratch every time (balanced, but most blocks move). */
    static Balancer contiguous() {
        return (blockCount, previous, ranks) -> {
            int[] owner = new int[blockCount];
            Arrays.setAll(owner, b -> (int) ((long) b * ranks / blockCount));
            return owner;
        };
    }
}
