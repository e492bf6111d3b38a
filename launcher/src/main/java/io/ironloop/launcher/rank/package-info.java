/**
 * The rank side of Ironloop's local launcher ({@code ironloop run}): the bootstrap, the control connection and
 * the subscriber that reports the runtime's events.
 *
 * <p>The launcher starts every rank JVM with the main class {@link io.ironloop.launcher.rank.RankBootstrap},
 * which reads the {@link io.ironloop.group.launch.LaunchEnvironment} ({@code IRONLOOP_RANK},
 * {@code IRONLOOP_SIZE}, {@code IRONLOOP_JOB}, {@code IRONLOOP_PEERS}, {@code IRONLOOP_SECRET_FILE},
 * {@code IRONLOOP_ATTEMPT}, {@code IRONLOOP_LAUNCHER}, {@code IRONLOOP_PARAMS}, {@code IRONLOOP_SPARES},
 * {@code IRONLOOP_HOST}), opens an authenticated
 * control connection to the launcher (challenge–response with an HMAC-SHA256 of the
 * {@link io.ironloop.group.launch.JobSecret}), and only then calls the application's {@code main}. When that
 * connection ends — the launcher exited or was killed with {@code kill -9} — the rank halts with
 * {@link io.ironloop.launcher.rank.RankBootstrap#EXIT_LAUNCHER_LOST}. A rank stopped by SIGSTOP runs no code
 * and cannot halt itself: the launcher's reaper process ({@code io.ironloop.launcher.RankReaper}) kills it
 * then, so no rank outlives its launcher.
 *
 * <p>The runtime reports progress through its typed event stream: the runtime finds
 * {@link io.ironloop.launcher.rank.LauncherSubscriberProvider} through {@link java.util.ServiceLoader}, which
 * subscribes {@link io.ironloop.launcher.rank.LauncherEvents} over this process's
 * {@link io.ironloop.launcher.rank.LauncherLink}: small JSON events (iteration reached, checkpoint saved, state
 * restored, iteration plan, online recovery, the application's own) that the supervisor records in its
 * timeline and uses for fault injection, restart-storm detection and supervising a job that recovers from
 * lost ranks without a relaunch. Outside the launcher nothing subscribes. The wire format is described in
 * {@link io.ironloop.launcher.rank.ControlProtocol}. The environment itself ({@code LaunchEnvironment},
 * {@code JobSecret}) belongs to the group, which learns its rank, size and peers from it.
 */
package io.ironloop.launcher.rank;
