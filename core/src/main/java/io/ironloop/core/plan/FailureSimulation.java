package io.ironloop.core.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded Monte-Carlo check of {@link Planner}'s formulas: it draws one trace of failures over a long virtual
 * run — node failures on nodes drawn at random, rack and whole-job failures — and plays every candidate on that
 * same trace. Each level saves every τ (starting at time 0, a save taking C); a failure is recovered by the
 * nearest level that covers it, an in-memory level only if its group (nodes {@code n / group}) lost fewer
 * members than it tolerates within its window before; the work lost is the time since the start of the newest
 * save of that level that had completed. Simulated figures come with the standard error of the lost work per day.
 *
 * <p>The same seed gives the same trace and figures. Cost: proportional to the failures drawn (10^5 ranks with a
 * 5-year node MTBF over 30 days: about 1,600 failures) and the saves counted, not to the ranks.
 */
public final class FailureSimulation {
    /** The most failures one simulation draws; more means the MTBFs or the horizon are not meant for it. */
    public static final int MAX_FAILURES = 20_000_000;

    private FailureSimulation() {
    }

    /**
     * One candidate as simulated.
     *
     * @param outcome the simulated figures (probability: the share of virtual days with at least one failure)
     * @param lostWorkStderr the standard error of the lost work per day (between days)
     * @param failures the failures in the trace
     */
    public record Simulated(Outcome outcome, double lostWorkStderr, long failures) {
    }

    /** A trace of failures: times (seconds, ascending), kinds and the node or rack hit. */
    private record Trace(double[] times, FailureKind[] kinds, long[] where) {
    }

    /**
     * Simulates {@code candidates} of {@code input} over {@code days} virtual days.
     *
     * @throws IllegalArgumentException if {@code days} is not positive or the trace would exceed {@link #MAX_FAILURES}
     */
    public static List<Simulated> simulate(PlanInput input, List<Candidate> candidates, double days, long seed) {
        if (!(days > 0) || Double.isInfinite(days)) {
            throw new IllegalArgumentException("the simulation needs a positive number of days, not " + days);
        }
        Trace trace = draw(input, days * Outcome.DAY, seed);
        List<Simulated> out = new ArrayList<>(candidates.size());
        for (Candidate c : candidates) {
            out.add(play(input, c, trace, days));
        }
        return out;
    }

    private static Trace draw(PlanInput input, double horizon, long seed) {
        double expected = 0;
        for (FailureKind k : FailureKind.values()) {
            expected += input.ratePerSecond(k) * horizon;
        }
        if (expected > MAX_FAILURES) {
            throw new IllegalArgumentException(String.format("the simulation would draw about %.3g failures (at most %d): shorten the "
                    + "simulated days or check the MTBFs", expected, MAX_FAILURES));
        }
        SplittableRandom root = new SplittableRandom(seed);
        List<double[]> events = new ArrayList<>(); // time, kind ordinal, where
        for (FailureKind k : FailureKind.values()) {
            SplittableRandom random = root.split(); // one stream per kind: adding rack failures leaves the node trace alone
            double rate = input.ratePerSecond(k);
            long targets = k == FailureKind.NODE ? input.nodes() : k == FailureKind.RACK ? input.racks() : 1;
            if (rate == 0) {
                continue;
            }
            for (double t = exponential(random, rate); t < horizon; t += exponential(random, rate)) {
                events.add(new double[] {t, k.ordinal(), random.nextLong(targets)});
            }
        }
        events.sort((a, b) -> Double.compare(a[0], b[0]));
        double[] times = new double[events.size()];
        FailureKind[] kinds = new FailureKind[events.size()];
        long[] where = new long[events.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = events.get(i)[0];
            kinds[i] = FailureKind.values()[(int) events.get(i)[1]];
            where[i] = (long) events.get(i)[2];
        }
        return new Trace(times, kinds, where);
    }

    private static double exponential(SplittableRandom random, double rate) {
        return -Math.log(1 - random.nextDouble()) / rate;
    }

    private static Simulated play(PlanInput input, Candidate candidate, Trace trace, double days) {
        List<LevelPlan> levels = candidate.levels();
        LevelPlan memory = levels.get(0).level().inMemory() ? levels.get(0) : null;
        double window = memory == null ? 0 : memory.intervalSeconds() + memory.recoverSeconds();
        int groupNodes = memory == null ? 1 : input.groupNodes(memory.level());
        int tolerated = memory == null ? 0 : input.tolerates(memory.level());
        double[] lastFailure = new double[memory == null ? 0 : Math.toIntExact(input.nodes())]; // per node, -inf: never
        Arrays.fill(lastFailure, Double.NEGATIVE_INFINITY);
        double horizon = days * Outcome.DAY;
        double[] lostByDay = new double[(int) Math.ceil(days)];
        boolean[] dayHit = new boolean[lostByDay.length];
        double lost = 0;
        double recovery = 0;
        for (int i = 0; i < trace.times().length; i++) {
            double t = trace.times()[i];
            LevelPlan by = null;
            if (trace.kinds()[i] == FailureKind.NODE && memory != null) {
                int node = (int) trace.where()[i];
                by = othersDownSince(lastFailure, node, groupNodes, t - window) < tolerated ? memory : null;
                lastFailure[node] = t;
            }
            if (by == null) {
                by = firstCovering(levels, trace.kinds()[i]);
            }
            double l = t - newestSaveStart(by, t);
            lost += l;
            recovery += by.recoverSeconds();
            int day = (int) Math.min(lostByDay.length - 1, t / Outcome.DAY);
            lostByDay[day] += l;
            dayHit[day] = true;
        }
        double saving = 0;
        for (LevelPlan l : levels) {
            saving += Math.ceil(horizon / l.intervalSeconds()) * l.costSeconds();
        }
        long hitDays = 0;
        for (boolean hit : dayHit) {
            hitDays += hit ? 1 : 0;
        }
        double failures = trace.times().length;
        Outcome o = new Outcome(100 * saving / horizon, lost / days, recovery / days, failures / days, hitDays / (double) dayHit.length);
        return new Simulated(o, stderr(lostByDay), trace.times().length);
    }

    /** How many other members of {@code node}'s group (nodes {@code node / group}) failed at or after {@code since}. */
    private static int othersDownSince(double[] lastFailure, int node, int group, double since) {
        int first = node / group * group;
        int down = 0;
        for (int n = first; n < Math.min(first + group, lastFailure.length); n++) {
            if (n != node && lastFailure[n] >= since) {
                down++;
            }
        }
        return down;
    }

    /** The start of the newest save of {@code level} complete at {@code t} (saves start at 0, τ, 2τ, … and take C); 0 before the first. */
    private static double newestSaveStart(LevelPlan level, double t) {
        if (t < level.costSeconds()) {
            return 0;
        }
        return Math.floor((t - level.costSeconds()) / level.intervalSeconds()) * level.intervalSeconds();
    }

    private static LevelPlan firstCovering(List<LevelPlan> levels, FailureKind kind) {
        for (LevelPlan l : levels) {
            if (!l.level().inMemory() && l.level().covers().contains(kind)) {
                return l;
            }
        }
        throw new IllegalStateException("candidate " + levels + " does not recover " + kind.label() + " failures");
    }

    private static double stderr(double[] perDay) {
        int n = perDay.length;
        if (n < 2) {
            return Double.NaN;
        }
        double mean = Arrays.stream(perDay).average().orElse(0);
        double ss = 0;
        for (double v : perDay) {
            ss += (v - mean) * (v - mean);
        }
        return Math.sqrt(ss / (n - 1) / n);
    }
}
