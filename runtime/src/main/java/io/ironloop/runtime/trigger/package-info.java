/**
 * Triggers: the outside events that make a rank save its local state at once, namely termination
 * signals ({@code SIGTERM}, {@code SIGINT}, and optionally {@code SIGUSR1}/{@code SIGUSR2}, which Slurm,
 * Kubernetes and batch schedulers send before they kill a job) and cloud preemption notices (AWS spot
 * instance-action, GCE {@code preempted}, Azure scheduled events).
 *
 * <p>The runtime starts them with {@link io.ironloop.runtime.trigger.Triggers#start}, giving a
 * {@link io.ironloop.runtime.trigger.TriggerAction} ("save the published local state now, then the global
 * state at a consistent point") and a {@link io.ironloop.runtime.trigger.TriggerListener} that sees every
 * {@link io.ironloop.runtime.trigger.TriggerEvent}. Configuration comes from the keys in
 * {@link io.ironloop.runtime.trigger.TriggerKeys}.
 *
 * <p>Unlike DeLIA, a termination signal is never swallowed: after the save (or its deadline) the process
 * exits with the conventional status {@code 128 + signal number}.
 */
package io.ironloop.runtime.trigger;
