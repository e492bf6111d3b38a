/**
 * The runtime's one typed event stream: {@link io.ironloop.runtime.event.RuntimeEvent} (a sealed interface of
 * records), published on a rank's {@link io.ironloop.runtime.event.RuntimeEvents}. Subscribers that modules
 * above the runtime provide are found through {@link io.ironloop.runtime.event.EventSubscriberProvider}: the
 * launcher module's turns events into its control protocol when the process runs under {@code ironloop run}. Every rank also subscribes its metrics and flight-recorder events (one subscriber, configured by
 * {@code METRICS_PORT}; see docs/operations.md, "Metrics and JFR"). Logs, tests and applications subscribe with
 * a {@code Consumer<RuntimeEvent>} ({@code IronloopBuilder.subscribe}).
 */
package io.ironloop.runtime.event;
