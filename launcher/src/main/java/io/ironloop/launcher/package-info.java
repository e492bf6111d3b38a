/**
 * The local launcher and supervisor behind {@code ironloop run}: starts N rank JVMs on this machine,
 * forwards their output prefixed by rank, stops or restarts the job when a rank fails, forwards
 * SIGINT/SIGTERM to the ranks, injects real faults ({@code --fail}, {@code --preempt}) and keeps a
 * timeline of what the ranks and the supervisor did.
 *
 * <p>Entry points: {@link io.ironloop.launcher.Launcher#run(io.ironloop.launcher.LaunchSpec)} for a
 * supervised run in-process (the {@code demo} command and tests), and
 * {@link io.ironloop.launcher.SignalForwarding} to forward the process's own signals to a running
 * {@link io.ironloop.launcher.Launcher}; {@link io.ironloop.launcher.UnsupervisedRanks} starts rank JVMs the same way
 * without the supervisor, for benchmarks that inject and time their own faults. The rank side (bootstrap, control connection, event subscriber) is
 * {@link io.ironloop.launcher.rank}; the environment the ranks read, {@code io.ironloop.group.launch}.
 */
package io.ironloop.launcher;
