/**
 * How the triggers work: {@link io.ironloop.runtime.internal.trigger.SignalTrigger} installs the signal
 * handlers, {@link io.ironloop.runtime.internal.trigger.PreemptionWatcher} polls a cloud metadata endpoint
 * through one {@link io.ironloop.runtime.internal.trigger.MetadataSource} per provider, and both hand the
 * save to the single {@link io.ironloop.runtime.internal.trigger.ActionRunner}, which runs it on its own
 * thread. {@link io.ironloop.runtime.internal.trigger.ProcessExit} ends the process after a signal and is
 * replaced in tests. Not exported.
 */
package io.ironloop.runtime.internal.trigger;
