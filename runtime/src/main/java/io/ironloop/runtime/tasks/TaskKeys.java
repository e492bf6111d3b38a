package io.ironloop.runtime.tasks;

import io.ironloop.config.ParameterKey;
import java.util.List;

/** The configuration keys of the task pool (DeLIA's {@code WORKLOAD_SCHEDULER}); {@link #ALL} joins the runtime's parameter table. */
public final class TaskKeys {

    /** DeLIA's key: which scheduler places the tasks of each round on the ranks. */
    public static final ParameterKey<WorkloadScheduler> WORKLOAD_SCHEDULER = ParameterKey.choice("WORKLOAD_SCHEDULER",
            WorkloadScheduler.class, WorkloadScheduler.DS,
            "workload scheduler of the task pool: DS (static blocks of tasks per rank) or CTWS (static start, then idle "
                    + "ranks steal tasks not yet started from the others, in cyclic order)");

    /** Every key of this class, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(WORKLOAD_SCHEDULER);

    private TaskKeys() {
    }
}
