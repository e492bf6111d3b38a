/**
 * The launch environment a rank reads: {@link io.ironloop.group.launch.LaunchEnvironment} ({@code IRONLOOP_RANK},
 * {@code IRONLOOP_SIZE}, {@code IRONLOOP_JOB}, {@code IRONLOOP_PEERS}, {@code IRONLOOP_SECRET_FILE},
 * {@code IRONLOOP_ATTEMPT}, {@code IRONLOOP_LAUNCHER}, {@code IRONLOOP_PARAMS}, {@code IRONLOOP_SPARES},
 * {@code IRONLOOP_HOST}) and the {@link io.ironloop.group.launch.JobSecret} that authenticates the group's
 * members. The group learns its rank, size and peers here; the launcher that sets this environment, and the
 * rank side of its control protocol, are the {@code launcher} module above.
 */
package io.ironloop.group.launch;
