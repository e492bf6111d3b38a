/**
 * The local launcher and supervisor behind {@code ironloop run}: starts N rank JVMs on this machine,
 * forwards their output prefixed by rank, stops or restarts the job when a rank fails, forwards
 * SIGINT/SIGTERM to the ranks, injects real faults ({@code --fail}, {@code --preempt}) and keeps a
 * timeline of what the ranks and the supervisor did.
 *
 * <p>Entry points: {@link io.ironloop.cli.launch.Launcher#run(io.ironloop.cli.launch.LaunchSpec)} for a
 * supervised run in-process (the {@code demo} command and tests), and
 * {@link io.ironloop.cli.launch.SignalForwarding} to forward the process's own signals to a running
 * {@link io.ironloop.cli.launch.Launcher}. The rank side (environment, bootstrap, event link) lives in
 * {@code io.ironloop.group.launch}.
 */
package io.ironloop.cli.launch;
