/**
 * Implementation of the process group independent of the network: the session (failure knowledge,
 * buffered messages), collectives over point-to-point messages, and the fault-tolerant agreement. Not
 * exported; {@link io.ironloop.group.internal.Diagnostics} serves benchmarks and tests.
 */
package io.ironloop.group.internal;
