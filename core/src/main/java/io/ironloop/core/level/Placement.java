package io.ironloop.core.level;

import java.util.ArrayList;
import java.util.List;

/**
 * Which ranks keep copies of which rank's snapshot: a rule every rank evaluates alike (waLBerla's
 * distribution callback). {@link #partnersOf} gives the ranks a rank sends its copies to; who receives
 * from whom follows from it ({@link #sourcesOf}).
 */
@FunctionalInterface
public interface Placement {

    /**
     * The ranks {@code rank} sends its snapshot to, in a group of {@code hosts.size()} ranks.
     *
     * @param rank the sending rank
     * @param hosts each rank's failure domain (host), empty strings when unknown
     * @return distinct ranks other than {@code rank}; empty when the group has one rank
     */
    int[] partnersOf(int rank, List<String> hosts);

    /** The ranks that send their snapshot to {@code rank}, ascending. */
    default int[] sourcesOf(int rank, List<String> hosts) {
        List<Integer> from = new ArrayList<>();
        for (int r = 0; r < hosts.size(); r++) {
            if (r == rank) {
                continue;
            }
            for (int p : partnersOf(r, hosts)) {
                if (p == rank) {
                    from.add(r);
                }
            }
        }
        return from.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * waLBerla's pairwise rule (Algorithm 1), failure-domain aware: rank r sends to (r + P/2) mod P, the
     * "opposing" rank, which on a cluster with consecutive ranks per node is on another node. When hosts
     * are known and that rank shares r's host, the next rank after it on another host is taken instead;
     * when every rank shares one host, the plain rule applies.
     */
    static Placement pairwise() {
        return (rank, hosts) -> {
            int p = hosts.size();
            if (p < 2) {
                return new int[0];
            }
            int shift = Math.max(1, p / 2);
            int plain = (rank + shift) % p;
            String own = hosts.get(rank);
            if (own.isEmpty() || !own.equals(hosts.get(plain))) {
                return new int[] {plain};
            }
            for (int k = 1; k < p; k++) {
                int candidate = (rank + shift + k) % p;
                if (candidate != rank && !own.equals(hosts.get(candidate))) {
                    return new int[] {candidate};
                }
            }
            return new int[] {plain};
        };
    }
}
