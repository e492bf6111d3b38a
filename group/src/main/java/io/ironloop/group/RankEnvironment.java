package io.ironloop.group;

import io.ironloop.ConfigurationException;
import io.ironloop.group.internal.SlurmHostlist;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where this process stands in its job: rank, size, job id, and what the environment says about peers,
 * as read from the Ironloop launcher, Slurm, Open MPI, a Kubernetes indexed Job, or given explicitly.
 *
 * @param rank this process's world rank
 * @param size the number of ranks
 * @param jobId the job id (the JGroups cluster name)
 * @param source where the values came from
 * @param peers host:port of every rank in rank order when the environment gives them (launcher), else
 *     candidate hosts with the base port (Slurm), else empty
 * @param localIndex this rank's index among the ranks on its host (Slurm), 0 otherwise
 * @param ranksPerHost how many ranks may share a host (ports probed per host), 1 when peers are exact
 */
public record RankEnvironment(int rank, int size, String jobId, Source source, List<String> peers, int localIndex, int ranksPerHost) {

    /** Which launcher or scheduler the values came from. */
    public enum Source {
        /** {@code IRONLOOP_RANK}, {@code IRONLOOP_SIZE}, {@code IRONLOOP_JOB}, {@code IRONLOOP_PEERS}. */
        IRONLOOP,
        /** {@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_JOB_ID}, {@code SLURM_NODELIST}. */
        SLURM,
        /** {@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}. */
        OPEN_MPI,
        /** {@code JOB_COMPLETION_INDEX} and {@code GROUP_SIZE}. */
        KUBERNETES,
        /** Given by the program. */
        EXPLICIT
    }

    public RankEnvironment {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(source, "source");
        peers = List.copyOf(peers);
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is not within a job of size " + size);
        }
        if (jobId.isBlank()) {
            throw new IllegalArgumentException("the job id is empty");
        }
    }

    /** Rank, size and job given by the program; peers from the configuration. */
    public static RankEnvironment explicit(int rank, int size, String jobId) {
        return new RankEnvironment(rank, size, jobId, Source.EXPLICIT, List.of(), 0, 1);
    }

    /**
     * Reads the environment, in this order: Ironloop launcher, Slurm, Open MPI, Kubernetes indexed Job.
     *
     * @param env the process environment, e.g. {@link System#getenv()}
     * @throws ConfigurationException if no known launcher is recognised or a variable is malformed
     */
    public static RankEnvironment detect(Map<String, String> env, GroupConfig config) {
        if (env.containsKey("IRONLOOP_RANK")) {
            int size = number(env, "IRONLOOP_SIZE");
            String peers = env.get("IRONLOOP_PEERS");
            List<String> list = peers == null || peers.isBlank() ? List.of() : List.of(peers.split(","));
            if (!list.isEmpty() && list.size() != size) {
                throw new ConfigurationException("IRONLOOP_PEERS lists " + list.size() + " peers but IRONLOOP_SIZE is " + size);
            }
            return new RankEnvironment(number(env, "IRONLOOP_RANK"), size, required(env, "IRONLOOP_JOB"), Source.IRONLOOP, list, 0, 1);
        }
        if (env.containsKey("SLURM_PROCID") && env.containsKey("SLURM_NTASKS")) {
            int size = number(env, "SLURM_NTASKS");
            List<String> hosts = SlurmHostlist.expand(required(env, "SLURM_NODELIST"));
            int perHost = SlurmHostlist.maxTasksPerNode(env.getOrDefault("SLURM_TASKS_PER_NODE", ""), size);
            List<String> peers = new ArrayList<>();
            for (String h : hosts) {
                peers.add(h + ":" + config.bindPort());
            }
            int local = env.containsKey("SLURM_LOCALID") ? number(env, "SLURM_LOCALID") : 0;
            String job = required(env, "SLURM_JOB_ID") + (env.containsKey("SLURM_STEP_ID") ? "." + env.get("SLURM_STEP_ID") : "");
            return new RankEnvironment(number(env, "SLURM_PROCID"), size, "slurm-" + job, Source.SLURM, peers, local, perHost);
        }
        if (env.containsKey("OMPI_COMM_WORLD_RANK")) {
            String job = env.getOrDefault("IRONLOOP_JOB", env.get("OMPI_MCA_ess_base_jobid"));
            if (job == null) {
                throw new ConfigurationException("under Open MPI, set IRONLOOP_JOB (e.g. mpirun -x IRONLOOP_JOB=myjob) to name the job");
            }
            int local = env.containsKey("OMPI_COMM_WORLD_LOCAL_RANK") ? number(env, "OMPI_COMM_WORLD_LOCAL_RANK") : 0;
            return new RankEnvironment(number(env, "OMPI_COMM_WORLD_RANK"), number(env, "OMPI_COMM_WORLD_SIZE"), "ompi-" + job,
                    Source.OPEN_MPI, List.of(), local, 1);
        }
        if (env.containsKey("JOB_COMPLETION_INDEX")) {
            int size = config.size().orElseThrow(() -> new ConfigurationException(
                    "JOB_COMPLETION_INDEX is set (Kubernetes indexed Job) but GROUP_SIZE is not: set IRONLOOP_GROUP_SIZE to the Job's completions"));
            String job = env.get("IRONLOOP_JOB");
            if (job == null) {
                throw new ConfigurationException("under Kubernetes, set IRONLOOP_JOB (e.g. from the pod label job-name via the downward API)");
            }
            return new RankEnvironment(number(env, "JOB_COMPLETION_INDEX"), size, job, Source.KUBERNETES, List.of(), 0, 1);
        }
        throw new ConfigurationException("cannot tell this process's rank: none of IRONLOOP_RANK (bin/ironloop run), SLURM_PROCID (srun), "
                + "OMPI_COMM_WORLD_RANK (mpirun) or JOB_COMPLETION_INDEX (Kubernetes indexed Job) is set; start it with one of these "
                + "or use RankEnvironment.explicit(rank, size, job)");
    }

    /** The secret file: the configured one, else {@code IRONLOOP_SECRET_FILE}. */
    static Optional<Path> secretFile(Map<String, String> env, GroupConfig config) {
        return config.secretFile().or(() -> Optional.ofNullable(env.get("IRONLOOP_SECRET_FILE")).filter(s -> !s.isBlank()).map(Path::of));
    }

    private static String required(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new ConfigurationException("environment variable " + name + " is not set");
        }
        return v.trim();
    }

    private static int number(Map<String, String> env, String name) {
        String v = required(env, name);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new ConfigurationException("environment variable " + name + "='" + v + "' is not a whole number", e);
        }
    }
}
