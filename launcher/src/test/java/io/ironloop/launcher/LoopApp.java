package io.ironloop.launcher;

import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.launcher.rank.LauncherLink;
import io.ironloop.launcher.rank.ThisRank;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

/**
 * A small iterative application for launcher tests, run as a rank. Arguments are {@code key=value}:
 * {@code iterations} (default 5), {@code sleep-ms} per iteration (default 20), {@code plan} (declare the
 * last iteration), {@code exit-rank}, {@code exit-at}, {@code exit-status}, {@code exit-attempt} (rank
 * R exits with S at iteration I in attempt A; -1 = every attempt), {@code hang-on-exit-ms} (a shutdown
 * hook that takes that long, like a slow save), {@code report-env} (print the launch environment),
 * {@code report-watchdog-at-exit} (print the launcher watchdog's state while the JVM exits).
 */
public final class LoopApp {
    private LoopApp() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (String a : args) {
            String[] kv = a.split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        int rank = Integer.parseInt(System.getenv().getOrDefault("IRONLOOP_RANK", "0"));
        int attempt = Integer.parseInt(System.getenv().getOrDefault("IRONLOOP_ATTEMPT", "0"));
        int iterations = Integer.parseInt(opts.getOrDefault("iterations", "5"));
        long sleepMs = Long.parseLong(opts.getOrDefault("sleep-ms", "20"));
        int exitRank = Integer.parseInt(opts.getOrDefault("exit-rank", "-1"));
        int exitAt = Integer.parseInt(opts.getOrDefault("exit-at", "-1"));
        int exitStatus = Integer.parseInt(opts.getOrDefault("exit-status", "3"));
        int exitAttempt = Integer.parseInt(opts.getOrDefault("exit-attempt", "0"));
        long hangMs = Long.parseLong(opts.getOrDefault("hang-on-exit-ms", "0"));

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("rank " + rank + " shutdown hook");
            System.out.flush();
            if (hangMs > 0) {
                try {
                    Thread.sleep(hangMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }));
        System.err.println("rank " + rank + " started pid " + ProcessHandle.current().pid());
        if (opts.containsKey("report-env")) {
            reportEnvironment(rank);
        }
        LauncherLink link = ThisRank.link();
        if (opts.containsKey("plan")) {
            link.plan(iterations);
        }
        for (int i = 1; i <= iterations; i++) {
            link.iteration(i);
            System.out.println("rank " + rank + " attempt " + attempt + " iteration " + i);
            if (rank == exitRank && i == exitAt && (exitAttempt == -1 || exitAttempt == attempt)) {
                System.out.println("rank " + rank + " exits with " + exitStatus);
                System.out.flush();
                System.exit(exitStatus);
            }
            Thread.sleep(sleepMs);
            if (i % 2 == 0) {
                link.saved(i, "global");
            }
        }
        System.out.println("rank " + rank + " done attempt " + attempt);
        if (opts.containsKey("report-watchdog-at-exit")) {
            reportWatchdogAtExit(rank);
        }
    }

    /**
     * A shutdown hook that prints the state of the launcher watchdog once it has ended, or after 10 s: a thread
     * still blocked in its socket read at exit is in native code, and the JVM's exit waits up to 300 ms for it.
     */
    private static void reportWatchdogAtExit(int rank) {
        Thread watchdog = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("ironloop-launcher-watchdog")).findFirst().orElseThrow();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                watchdog.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.out.println("rank " + rank + " watchdog at exit " + watchdog.getState());
            System.out.flush();
        }));
    }

    private static void reportEnvironment(int rank) throws Exception {
        LaunchEnvironment env = LaunchEnvironment.current().orElseThrow();
        Path secret = env.secretFile();
        System.out.println("rank " + rank + " env size=" + env.size() + " job=" + env.jobId()
                + " peers=" + System.getenv("IRONLOOP_PEERS") + " launcher=" + System.getenv("IRONLOOP_LAUNCHER")
                + " params=" + System.getenv("IRONLOOP_PARAMS") + " secret=" + secret
                + " secret-perms=" + PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))
                + " cwd=" + Path.of("").toAbsolutePath()
                + " job-property=" + System.getProperty("ironloop.job")
                + " rank-property=" + System.getProperty("ironloop.rank"));
    }
}
