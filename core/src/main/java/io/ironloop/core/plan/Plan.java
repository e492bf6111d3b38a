package io.ironloop.core.plan;

import java.util.List;

/**
 * The candidates for one input, best first (least waste: saving, redone work and restoring).
 *
 * @param input what the plan was made for
 * @param candidates every chain that recovers every weighed failure, best first
 */
public record Plan(PlanInput input, List<Candidate> candidates) {
    public Plan {
        candidates = List.copyOf(candidates);
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one candidate");
        }
    }

    /** The recommended chain: the first candidate. */
    public Candidate recommended() {
        return candidates.get(0);
    }
}
