package io.ironloop.group;

import io.ironloop.ConfigurationException;
import io.ironloop.group.internal.Session;
import io.ironloop.group.internal.jgroups.JGroupsTransport;
import io.ironloop.group.launch.JobSecret;
import java.util.Map;
import java.util.Objects;

/**
 * Creates the process group of this JVM: reads rank, size and job from the environment (Ironloop
 * launcher, Slurm, Open MPI, Kubernetes) or takes them explicitly, and joins the other ranks over JGroups.
 * For ranks as threads of one JVM, see {@link InJvmCluster}.
 */
public final class ProcessGroups {
    private ProcessGroups() {
    }

    /**
     * Joins the job described by this process's environment and waits until every rank has joined.
     *
     * @throws ConfigurationException if the environment names no rank, the secret is missing or unsafe
     * @throws io.ironloop.IronloopException if not every rank joined within {@code GROUP_JOIN_TIMEOUT}
     */
    public static ProcessGroup join(GroupConfig config, GroupListener listener) {
        Map<String, String> env = System.getenv();
        return join(RankEnvironment.detect(env, config), config, listener, env);
    }

    /**
     * Joins the job {@code where} describes.
     *
     * @throws ConfigurationException if the secret is missing or unsafe, or addresses cannot be worked out
     * @throws io.ironloop.IronloopException if not every rank joined within {@code GROUP_JOIN_TIMEOUT}
     */
    public static ProcessGroup join(RankEnvironment where, GroupConfig config, GroupListener listener) {
        return join(where, config, listener, System.getenv());
    }

    private static ProcessGroup join(RankEnvironment where, GroupConfig config, GroupListener listener, Map<String, String> env) {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(listener, "listener");
        JobSecret secret = JobSecret.load(RankEnvironment.secretFile(env, config).orElseThrow(() -> new ConfigurationException(
                "no job secret: set SECRET_FILE (IRONLOOP_SECRET_FILE) to a file only its owner can read; bin/ironloop run creates one")));
        return new Session(JGroupsTransport.create(where, config, secret), listener).start();
    }
}
