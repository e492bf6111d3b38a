package io.ironloop.runtime.skeleton;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What moves between parts after a step's calculation, computed from the {@link Partition} (FTG's
 * {@code ftg_Routing_plan}): part {@code to} receives from part {@code from} the data {@code from} possessed at the
 * step that {@code to} needs at the next step, {@code possessed(from, step) ∩ needed(to, next)}. Making a plan checks
 * the partition: the possessed boxes of both steps must cover the domain exactly, each needed box must lie in the
 * domain and hold its possessed box. Immutable.
 */
public final class RoutingPlan {
    /** The two kinds of communication of the GReLoSSS model. */
    public enum Kind {
        /**
         * Border (shadow region) exchange: the received data goes into the receiver's write domain, next to what it
         * computed; then the domains swap. Domain decomposition codes (Jacobi, Swing).
         */
        BORDERS,
        /**
         * Data circulation: the data moves on as a whole — what a part computed goes to the parts that need it next,
         * what it keeps included, into the domain it reads at the next step; the domains do not swap. Codes where
         * blocks travel round the parts (matrix products, all-pairs interactions).
         */
        CIRCULATION
    }

    /** How many elements {@link #uncovered} looks at, at most. */
    private static final int SEARCH_LIMIT = 1 << 20;

    private final int parts;
    private final Box[] possessed; // at the step
    private final Box[] possessedNext;
    private final Box[] needed; // at the next step
    private final Box[][] regions; // [from][to], null when nothing moves; [p][p] what part p keeps

    private RoutingPlan(Box[] possessed, Box[] possessedNext, Box[] needed, Box[][] regions) {
        this.parts = possessed.length;
        this.possessed = possessed;
        this.possessedNext = possessedNext;
        this.needed = needed;
        this.regions = regions;
    }

    /**
     * The plan after {@code step}, towards {@code next} (the same boxes for both kinds of communication).
     *
     * @throws IllegalArgumentException naming the offending parts and boxes, if the partition leaves part of the
     *     domain to nobody, gives it to two parts, or needs data outside the domain
     */
    public static RoutingPlan between(Box domain, Partition partition, int parts, long step, long next) {
        return between(domain, partition, parts, step, next, null);
    }

    /**
     * {@link #between(Box, Partition, int, long, long)}, or {@code previous} itself when the partition gives the same
     * boxes at {@code step} and {@code next} as it gave for {@code previous} (already checked): a skeleton's plan is
     * made at every step, and most partitions do not change from step to step.
     */
    static RoutingPlan between(Box domain, Partition partition, int parts, long step, long next, RoutingPlan previous) {
        Box[] possessed = boxes(partition, parts, step, true);
        Box[] possessedNext = next == step ? possessed : boxes(partition, parts, next, true);
        Box[] needed = boxes(partition, parts, next, false);
        if (previous != null && Arrays.equals(possessed, previous.possessed) && Arrays.equals(possessedNext, previous.possessedNext)
                && Arrays.equals(needed, previous.needed)) {
            return previous;
        }
        check(domain, possessed, step);
        if (next != step) {
            check(domain, possessedNext, next);
        }
        checkNeeded(domain, needed, possessedNext, next);
        Box[][] regions = new Box[parts][parts];
        for (int from = 0; from < parts; from++) {
            for (int to = 0; to < parts; to++) {
                Box r = possessed[from].intersect(needed[to]);
                if (!r.isEmpty()) {
                    regions[from][to] = r;
                }
            }
        }
        return new RoutingPlan(possessed, possessedNext, needed, regions);
    }

    private static Box[] boxes(Partition partition, int parts, long step, boolean possessed) {
        Box[] b = new Box[parts];
        for (int p = 0; p < parts; p++) {
            b[p] = possessed ? partition.possessed(p, parts, step) : partition.needed(p, parts, step);
        }
        return b;
    }

    /** Checks that the possessed boxes of {@code step} tile the domain. */
    private static void check(Box domain, Box[] possessed, long step) {
        int parts = possessed.length;
        long total = 0;
        List<String> problems = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            if (possessed[p].dims() != domain.dims() || !domain.contains(possessed[p])) {
                problems.add("part " + p + " possesses " + possessed[p] + ", outside the domain " + domain);
                continue;
            }
            total += possessed[p].size();
            for (int q = 0; q < p; q++) {
                Box overlap = possessed[p].intersect(possessed[q]);
                if (!overlap.isEmpty()) {
                    problems.add("parts " + q + " and " + p + " both possess " + overlap);
                }
            }
        }
        if (problems.isEmpty() && total != domain.size()) {
            problems.add("the parts possess " + total + " of the domain's " + domain.size() + " elements: " + uncovered(domain, possessed)
                    + " belongs to no part");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("the partition of " + domain + " into " + parts + " parts at step " + step
                    + " is invalid: " + String.join("; ", problems));
        }
    }

    private static void checkNeeded(Box domain, Box[] needed, Box[] possessed, long step) {
        for (int p = 0; p < needed.length; p++) {
            if (needed[p].dims() != domain.dims() || !domain.contains(needed[p]) || !needed[p].contains(possessed[p])) {
                throw new IllegalArgumentException("the partition of " + domain + " at step " + step + " is invalid: part " + p
                        + " needs " + needed[p] + ", which must lie in the domain and hold what it possesses, " + possessed[p]);
            }
        }
    }

    /**
     * Some element of the domain no possessed box holds, as a one-element box (called only when one exists); looks at
     * the first {@value #SEARCH_LIMIT} elements only, so that an error on a huge domain is reported at once.
     */
    private static String uncovered(Box domain, Box[] possessed) {
        int n = domain.dims();
        int[] c = new int[n];
        for (int d = 0; d < n; d++) {
            c[d] = domain.lo(d);
        }
        for (int looked = 0; looked < SEARCH_LIMIT; looked++) {
            int[] hi = c.clone();
            for (int d = 0; d < n; d++) {
                hi[d]++;
            }
            Box cell = Box.of(c, hi);
            boolean held = false;
            for (Box b : possessed) {
                held |= b.contains(cell);
            }
            if (!held) {
                return "element " + cell;
            }
            int d = n - 1;
            while (d >= 0 && ++c[d] == domain.hi(d)) {
                c[d] = domain.lo(d);
                d--;
            }
            if (d < 0) {
                break;
            }
        }
        return "an element after the first " + SEARCH_LIMIT;
    }

    /** The number of parts. */
    public int parts() {
        return parts;
    }

    /** What part {@code part} possesses at the plan's step. */
    Box possessed(int part) {
        return possessed[part];
    }

    /** What part {@code part} needs at the plan's next step. */
    Box needed(int part) {
        return needed[part];
    }

    /** The box part {@code from} sends to part {@code to} ({@code from == to}: what it keeps), or null when nothing moves. */
    public Box region(int from, int to) {
        return regions[from][to];
    }

    /** The number of (from, to) pairs of different parts that exchange data. */
    public int transfers() {
        int n = 0;
        for (int from = 0; from < parts; from++) {
            for (int to = 0; to < parts; to++) {
                n += from == to || regions[from][to] == null ? 0 : 1;
            }
        }
        return n;
    }
}
