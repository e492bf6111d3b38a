/**
 * A rank's metrics (Micrometer, served in Prometheus' format) and JDK Flight Recorder events, both fed by the
 * runtime's event stream through one subscriber, {@link io.ironloop.runtime.internal.metrics.RankMetrics}.
 */
package io.ironloop.runtime.internal.metrics;
