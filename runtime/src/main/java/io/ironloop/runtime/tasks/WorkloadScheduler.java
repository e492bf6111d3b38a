package io.ironloop.runtime.tasks;

/** DeLIA's workload schedulers: how the tasks of an iteration are placed on ranks. */
public enum WorkloadScheduler {
    /** Decentralised static: each rank runs a fixed block of the tasks. */
    DS,
    /** Cyclic token-based work stealing: a static start, then idle ranks steal from busy ones. */
    CTWS
}
