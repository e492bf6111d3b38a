package io.ironloop.launcher;

import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.ShrinkResult;
import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.launcher.rank.LauncherLink;
import io.ironloop.launcher.rank.ThisRank;
import io.ironloop.launcher.rank.RecoveryReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A rank program for the launcher's online-recovery tests, built on the group layer only: it declares
 * {@code protection}, runs a loop with one allreduce per iteration, and on {@link ProcessFailedException}
 * reports {@code detected}, shrinks the group and — from rank 0 of the new group — reports {@code shrunk} and
 * {@code recovered}, then repeats the iteration with the survivors. Arguments are {@code key=value}:
 * {@code iterations} (default 20), {@code sleep-ms} per iteration (default 100), {@code mode}: {@code recover}
 * (default), {@code impossible} (report {@code recovery-impossible} and every survivor exits 3) or
 * {@code silent} (shrink and continue without reporting); {@code report-env} prints the launch environment.
 * Rank 0 of the last group prints {@code online sum=S size=N}, S being the sum over iterations of the group size.
 * Heartbeats every 500 ms, a 2 s timeout: a stopped rank is found in 2 s rather than the default 5 s (these tests
 * are about what the supervisor does once the survivors report a loss, not about the detection delay).
 */
public final class OnlineRank {
    /** Exit status of a survivor that cannot recover. */
    static final int EXIT_IMPOSSIBLE = 3;

    private OnlineRank() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> opts = new HashMap<>();
        for (String a : args) {
            String[] kv = a.split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        long iterations = Long.parseLong(opts.getOrDefault("iterations", "20"));
        long sleepMs = Long.parseLong(opts.getOrDefault("sleep-ms", "100"));
        String mode = opts.getOrDefault("mode", "recover");
        LauncherLink link = ThisRank.link();
        LaunchEnvironment env = link.environment().orElseThrow();
        if (opts.containsKey("report-env")) {
            System.out.println("rank " + env.rank() + " env size=" + env.size() + " spares=" + env.spares() + " spare="
                    + env.isSpare() + " host=" + env.host() + " IRONLOOP_SPARES=" + System.getenv("IRONLOOP_SPARES")
                    + " IRONLOOP_HOST=" + System.getenv("IRONLOOP_HOST"));
        }
        link.protection(true);
        link.plan(iterations);
        ProcessGroup group = ProcessGroups.join(GroupConfig.builder().heartbeatInterval(Duration.ofMillis(500))
                .heartbeatTimeout(Duration.ofSeconds(2)).build(), GroupListener.NONE);
        long sum = 0;
        try {
            for (long i = 1; i <= iterations; ) {
                link.iteration(i);
                try {
                    Thread.sleep(sleepMs);
                    sum += group.allreduce(1L, ReduceOp.SUM);
                    i++;
                } catch (ProcessFailedException e) {
                    long detected = System.nanoTime();
                    List<Integer> failed = new ArrayList<>();
                    for (int r : e.failedRanks()) {
                        failed.add(group.worldRank(r));
                    }
                    link.detected(failed);
                    ShrinkResult shrunk = group.shrink();
                    Duration shrink = Duration.ofNanos(System.nanoTime() - detected);
                    List<Integer> lost = new ArrayList<>();
                    for (int r = 0; r < group.size(); r++) {
                        if (shrunk.newRank(r) < 0) {
                            lost.add(group.worldRank(r));
                        }
                    }
                    group = shrunk.group();
                    if (group.rank() == 0) {
                        link.shrunk(lost, group.size(), shrink);
                        if (mode.equals("recover")) {
                            link.recovered(new RecoveryReport(lost, i, RecoveryReport.Source.MEMORY, 0, Duration.ofMillis(1),
                                    shrink, Duration.ZERO, Duration.ZERO));
                        } else if (mode.equals("impossible")) {
                            link.recoveryImpossible(lost, "test: the copies of rank " + lost + " are gone");
                        }
                    }
                    if (mode.equals("impossible")) {
                        System.out.flush();
                        System.exit(EXIT_IMPOSSIBLE);
                    }
                }
            }
            if (group.rank() == 0) {
                System.out.println("online sum=" + sum + " size=" + group.size());
            }
        } finally {
            group.close();
        }
    }
}
