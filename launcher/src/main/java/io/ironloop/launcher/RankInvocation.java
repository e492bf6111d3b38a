package io.ironloop.launcher;

import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.group.launch.RankCommand;
import io.ironloop.launcher.rank.RankBootstrap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one attempt starts its rank JVMs: the group's {@link RankCommand} (directly {@code java}, no shell, with
 * {@code -Dironloop.rank=R -Dironloop.job=ID}) whose main class is {@link RankBootstrap}, then the application;
 * and the environment of each rank ({@link LaunchEnvironment}'s variables over the spec's own). Immutable.
 *
 * @param jobId the job id
 * @param secretFile the job secret file
 * @param control the launcher's control socket, {@code host:port}
 * @param classpath the rank class path
 * @param spec what to run
 * @param attempt the attempt, 0 first
 * @param peers every rank's {@code 127.0.0.1:port}, comma-separated, in rank order
 */
record RankInvocation(String jobId, String secretFile, String control, String classpath, LaunchSpec spec, int attempt,
        String peers) {

    private RankCommand rankCommand() {
        List<String> main = new ArrayList<>();
        main.add(RankBootstrap.class.getName());
        main.add(spec.application().mainClass());
        main.addAll(spec.arguments());
        return new RankCommand(spec.javaExecutable(), spec.jvmOptions(), classpath, main, jobId, spec.worldSize(), peers,
                Path.of(secretFile));
    }

    /** The command line of rank {@code rank}. */
    List<String> command(int rank) {
        return rankCommand().command(rank);
    }

    /** The environment of rank {@code rank}, on host {@code host}, on {@code site} when the launcher fakes sites. */
    Map<String, String> environment(int rank, String host, java.util.Optional<String> site) {
        Map<String, String> env = new LinkedHashMap<>(spec.environment());
        env.putAll(rankCommand().environment(rank));
        env.put(LaunchEnvironment.ATTEMPT, Integer.toString(attempt));
        env.put(LaunchEnvironment.LAUNCHER, control);
        env.put(LaunchEnvironment.SPARES, Integer.toString(spec.spares()));
        env.put(LaunchEnvironment.HOST, host);
        site.ifPresent(s -> env.put(LaunchEnvironment.SITE, s));
        spec.params().ifPresent(p -> env.put(LaunchEnvironment.PARAMS, p.toString()));
        if (spec.fresh() && attempt == 0) {
            env.put("IRONLOOP_FRESH", "true");
        }
        return env;
    }
}
