package io.ironloop.core.plan;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One chain of levels, nearest first, with each level's interval and the outcome expected by formula.
 *
 * @param levels the levels, nearest first
 * @param expected the outcome by formula
 * @param escalation the probability that a node failure is more than the in-memory level's group survives (0 without one)
 */
public record Candidate(List<LevelPlan> levels, Outcome expected, double escalation) {
    public Candidate {
        levels = List.copyOf(levels);
    }

    /** The chain's name: its levels joined by {@code +}, as in {@code partner+shared}. */
    public String name() {
        return levels.stream().map(l -> l.level().label()).collect(Collectors.joining("+"));
    }
}
