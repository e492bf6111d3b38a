package io.ironloop.runtime.tasks;

import java.util.List;
import java.util.Objects;

/**
 * What one rank did in one round of a {@link TaskPool}: an immutable snapshot.
 *
 * @param round the round number
 * @param rank this rank
 * @param executed the tasks this rank ran, in execution order (its own block first, then stolen tasks)
 * @param stolen the tasks this rank received, per steal, in order; {@link Transfer#peer()} is the victim
 * @param givenAway the tasks this rank handed to thieves, per steal, in order; {@link Transfer#peer()} is the thief
 */
public record RoundReport(long round, int rank, List<Integer> executed, List<Transfer> stolen, List<Transfer> givenAway) {

    /** Copies the lists. */
    public RoundReport {
        executed = List.copyOf(executed);
        stolen = List.copyOf(stolen);
        givenAway = List.copyOf(givenAway);
    }

    /** How many tasks this rank received from other ranks in the round. */
    public int stolenCount() {
        return stolen.stream().mapToInt(t -> t.tasks().size()).sum();
    }

    /** How many tasks this rank handed to other ranks in the round. */
    public int givenAwayCount() {
        return givenAway.stream().mapToInt(t -> t.tasks().size()).sum();
    }

    /**
     * One hand-over of tasks between two ranks.
     *
     * @param peer the other rank (the victim for a steal, the thief for a hand-over)
     * @param tasks the tasks moved, ascending
     */
    public record Transfer(int peer, List<Integer> tasks) {
        /** Copies the list. */
        public Transfer {
            tasks = List.copyOf(Objects.requireNonNull(tasks, "tasks"));
        }
    }
}
