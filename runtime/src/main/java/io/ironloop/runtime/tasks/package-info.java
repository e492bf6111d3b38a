/**
 * The task pool of iterative applications whose iterations consist of independent tasks (the shots of a
 * full-waveform inversion): DeLIA's workload schedulers on top of a {@link io.ironloop.group.ProcessGroup}.
 *
 * <p>{@link io.ironloop.runtime.tasks.TaskPool#runRound} runs one round (one iteration's tasks) on every rank,
 * skipping the tasks finished before a restart. {@link io.ironloop.runtime.tasks.WorkloadScheduler#DS} keeps
 * the static block distribution; {@link io.ironloop.runtime.tasks.WorkloadScheduler#CTWS} starts from it and
 * lets idle ranks steal tasks that busy ranks have not started. Each round returns a
 * {@link io.ironloop.runtime.tasks.RoundReport}; a {@link io.ironloop.runtime.tasks.TaskPoolListener} sees
 * rounds and steals as they happen. The scheduler is chosen with DeLIA's {@code WORKLOAD_SCHEDULER} key
 * ({@link io.ironloop.runtime.tasks.TaskKeys}).
 *
 * <p>The pool decides only where a task runs. Applications keep one result per task and reduce the results
 * in task order, so the outcome is bit-identical whichever rank ran which task. The protocol and its message
 * tags are described in {@code docs/runtime-tasks.md}.
 */
package io.ironloop.runtime.tasks;
