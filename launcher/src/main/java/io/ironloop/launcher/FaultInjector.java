package io.ironloop.launcher;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The faults of a run that have not fired yet. Each fires at most once per run, in the first attempt
 * that reaches it. Used by the supervisor thread only.
 */
final class FaultInjector {
    private final Instant jobStart;
    private final Set<Fault.AtIteration> atIteration;
    private final Set<Fault.Preemption> preemptions;

    FaultInjector(Instant jobStart, List<Fault.AtIteration> atIteration, List<Fault.Preemption> preemptions) {
        this.jobStart = jobStart;
        this.atIteration = new LinkedHashSet<>(atIteration);
        this.preemptions = new LinkedHashSet<>(preemptions);
    }

    /** Iterations at which a rank must wait for the supervisor, because a fault is pending there. */
    List<Long> syncIterations(int rank) {
        return atIteration.stream().filter(k -> k.rank() == rank).map(Fault.AtIteration::iteration)
                .distinct().sorted().toList();
    }

    /**
     * The fault pending at this rank and iteration, removed (it fires now); a SIGKILL before a SIGTERM
     * when both are pending there (the SIGTERM then fires in a later attempt).
     */
    Optional<Fault.AtIteration> takeAt(int rank, long iteration) {
        if (rank < 0 || iteration < 0) {
            return Optional.empty(); // no fault is planned there (a rank may report any number)
        }
        for (Fault.AtIteration f : List.of(new Fault.KillAtIteration(rank, iteration),
                new Fault.PreemptAtIteration(rank, iteration))) {
            if (atIteration.remove(f)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** When a preemption is due. */
    Instant dueTime(Fault.Preemption p) {
        return jobStart.plus(p.after());
    }

    /** Pending preemptions, in the order given. */
    List<Fault.Preemption> pendingPreemptions() {
        return List.copyOf(preemptions);
    }

    /** Marks a preemption as fired. */
    void fired(Fault.Preemption p) {
        preemptions.remove(p);
    }

    /**
     * Checks pending kills against the application's declared last iteration.
     *
     * @return a message naming the faults that can never fire, when there are any
     */
    Optional<String> checkPlan(long lastIteration) {
        List<String> late = new ArrayList<>();
        for (Fault.AtIteration k : atIteration) {
            if (k.iteration() > lastIteration) {
                late.add(k.describe());
            }
        }
        return late.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", late)
                + (late.size() == 1 ? " is" : " are") + " past the last iteration (" + lastIteration
                + ", declared by the application): the fault would never fire");
    }

    /** Faults that have not fired. */
    List<Fault> unfired() {
        List<Fault> out = new ArrayList<>(atIteration);
        out.addAll(preemptions);
        return out;
    }
}
