package io.ironloop.runtime.tasks;

import io.ironloop.ConfigurationException;

/**
 * How a {@link TaskPool} places the tasks of a round on the ranks: DeLIA's {@code WORKLOAD_SCHEDULER}
 * values. Both start from the same static block distribution; only {@link #CTWS} moves tasks afterwards.
 */
public enum WorkloadScheduler {
    /**
     * Decentralised static: each rank runs its block of the round's remaining tasks and nothing else. No
     * messages; best when tasks cost the same everywhere.
     */
    DS,
    /**
     * Cyclic token-based work stealing (Assis et al., 2019): static start as {@link #DS}, then a rank whose
     * queue is empty asks the other ranks in cyclic order ({@code rank+1, rank+2, …}) for part of the tasks
     * they have not started. Best when tasks or ranks differ in speed.
     */
    CTWS;

    /**
     * Reads a {@code WORKLOAD_SCHEDULER} value, ignoring case and surrounding blanks.
     *
     * @param text the value as written in a parameter file, the environment or on the command line
     * @return the scheduler
     * @throws ConfigurationException if {@code text} is neither {@code DS} nor {@code CTWS}; the message
     *     names the key and the allowed values
     * @throws NullPointerException if {@code text} is null
     */
    public static WorkloadScheduler parse(String text) {
        try {
            return TaskKeys.WORKLOAD_SCHEDULER.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("bad value for " + TaskKeys.WORKLOAD_SCHEDULER.name() + ": " + e.getMessage()
                    + " (DS: static blocks, CTWS: static start then work stealing; case does not matter)", e);
        }
    }
}
