package io.ironloop.core.plan;

import io.ironloop.core.Schedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Recommends levels and intervals by formula. Every chain of at most one in-memory level (partner, XOR or
 * Reed–Solomon), optionally the local disk, and at most one of the shared file system and the object store is a
 * candidate if it recovers every failure weighed and every level in it recovers some.
 *
 * <p>The model (first order, as Young's): failures are independent and exponential — node failures at
 * {@code nodes / MTBF_node}, rack failures at {@code racks / MTBF_rack}, whole-job failures at {@code 1 / MTBF_job}.
 * Each failure is recovered by the nearest level that covers it; a node failure passes the in-memory level when
 * its group already lost as many members as the level tolerates within the vulnerability window
 * {@code W = interval + restore} (until the next save re-protects the group), which happens with probability
 * {@code P(Binomial(group − 1, 1 − e^(−W / MTBF_node)) ≥ tolerated)}. Level L then recovers failures at a rate
 * λ_L and saves every τ_L = √(2·C_L / λ_L) ({@link Schedule#youngDaly}); it costs C_L / τ_L of the run, and each
 * failure it recovers loses τ_L / 2 + C_L of work (a failure during a save falls back one save) and R_L to
 * restore. {@link FailureSimulation} checks these expectations.
 */
public final class Planner {
    private static final int FIXED_POINT_ROUNDS = 50;

    private Planner() {
    }

    /** Every candidate for {@code input}, best first. */
    public static Plan plan(PlanInput input) {
        List<Candidate> out = new ArrayList<>();
        for (PlanLevel memory : Arrays.asList(null, PlanLevel.PARTNER, PlanLevel.XOR, PlanLevel.RS)) {
            for (boolean disk : new boolean[] {false, true}) {
                for (PlanLevel durable : Arrays.asList(null, PlanLevel.SHARED, PlanLevel.S3)) {
                    List<PlanLevel> chain = new ArrayList<>();
                    if (memory != null) {
                        chain.add(memory);
                    }
                    if (disk) {
                        chain.add(PlanLevel.DISK);
                    }
                    if (durable != null) {
                        chain.add(durable);
                    }
                    if (!chain.isEmpty()) {
                        evaluate(input, chain).ifPresent(out::add);
                    }
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no chain of levels recovers every failure weighed");
        }
        out.sort(Comparator.comparingDouble(c -> c.expected().wastePct()));
        return new Plan(input, out);
    }

    /**
     * The candidate {@code chain} (levels nearest first) by formula, or empty when it leaves a weighed failure
     * unrecovered or holds a level that recovers nothing.
     */
    public static java.util.Optional<Candidate> evaluate(PlanInput input, List<PlanLevel> chain) {
        double[] rates = new double[chain.size()];
        PlanLevel memory = chain.get(0).inMemory() ? chain.get(0) : null;
        double escalation = 0;
        if (memory != null) {
            // the window depends on the interval, which depends on the failures left to the level: a fixed point
            LevelCost c = input.costs().get(memory);
            for (int round = 0; round < FIXED_POINT_ROUNDS; round++) {
                double rate = input.ratePerSecond(FailureKind.NODE) * (1 - escalation);
                double window = Schedule.youngDalySeconds(c.checkpointSeconds(), 1 / rate) + c.recoverSeconds();
                escalation = escalation(input, memory, window);
            }
            rates[0] = input.ratePerSecond(FailureKind.NODE) * (1 - escalation);
        }
        for (FailureKind kind : FailureKind.values()) {
            double rate = input.ratePerSecond(kind);
            if (kind == FailureKind.NODE && memory != null) {
                rate *= escalation;
            }
            if (rate == 0) {
                continue;
            }
            int at = firstCovering(chain, kind);
            if (at < 0) {
                return java.util.Optional.empty();
            }
            rates[at] += rate;
        }
        List<LevelPlan> levels = new ArrayList<>();
        double overhead = 0;
        double lost = 0;
        double recovery = 0;
        double failures = 0;
        for (int i = 0; i < chain.size(); i++) {
            if (rates[i] == 0) {
                return java.util.Optional.empty();
            }
            LevelCost c = input.costs().get(chain.get(i));
            LevelPlan l = new LevelPlan(chain.get(i), Schedule.youngDalySeconds(c.checkpointSeconds(), 1 / rates[i]), c.checkpointSeconds(),
                    c.recoverSeconds(), rates[i], c.source());
            levels.add(l);
            overhead += l.costSeconds() / l.intervalSeconds();
            lost += rates[i] * l.lostPerFailureSeconds();
            recovery += rates[i] * l.recoverSeconds();
            failures += rates[i];
        }
        double perDay = failures * Outcome.DAY;
        return java.util.Optional.of(new Candidate(levels, new Outcome(100 * overhead, lost * Outcome.DAY, recovery * Outcome.DAY, perDay,
                -Math.expm1(-perDay)), escalation));
    }

    /** The index of the first level of {@code chain} that is not in memory and covers {@code kind}, or the in-memory one for none. */
    private static int firstCovering(List<PlanLevel> chain, FailureKind kind) {
        for (int i = 0; i < chain.size(); i++) {
            PlanLevel l = chain.get(i);
            if (!l.inMemory() && l.covers().contains(kind)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The probability that a node failure finds its in-memory group already down by as many members as the level
     * tolerates within {@code windowSeconds} before it.
     */
    static double escalation(PlanInput input, PlanLevel memory, double windowSeconds) {
        int others = input.groupNodes(memory) - 1;
        double q = -Math.expm1(-windowSeconds / PlanInput.seconds(input.mtbfNode()));
        int need = input.tolerates(memory);
        double tail = 0; // P(at least need of the others failed), summed term by term: it is tiny
        for (int j = need; j <= others; j++) {
            tail += binomial(others, j) * Math.pow(q, j) * Math.pow(1 - q, others - j);
        }
        return tail;
    }

    private static double binomial(int n, int k) {
        double r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return r;
    }
}
