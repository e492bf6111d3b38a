package io.ironloop.group.process;

import io.ironloop.group.GroupConfig;
import io.ironloop.group.HeartbeatArrangement;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.ReduceOp;
import io.ironloop.group.ShrinkResult;
import io.ironloop.group.TestData;
import io.ironloop.group.internal.Diagnostics;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * A rank JVM for the process tests, started with the launcher's environment contract. Prints
 * machine-readable lines on stdout; args: scenario, arrangement, victim rank.
 */
public final class RankMain {
    /** Doubles of the large allreduces of the "largefail" scenario: 4 MiB, the large path's. */
    private static final int LARGE = 1 << 19;

    private RankMain() {
    }

    public static void main(String[] args) {
        try {
            run(args);
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1); // JGroups threads are not daemons: never linger after a failure
        }
    }

    private static void run(String[] args) throws Exception {
        String scenario = args[0];
        HeartbeatArrangement arrangement = HeartbeatArrangement.valueOf(args[1]);
        GroupConfig cfg = GroupConfig.builder().arrangement(arrangement).heartbeatInterval(Duration.ofSeconds(1))
                .heartbeatTimeout(Duration.ofSeconds(5)).joinTimeout(Duration.ofSeconds(60)).build();
        int worldRank = Integer.parseInt(System.getenv("IRONLOOP_RANK"));
        ProcessGroup g = ProcessGroups.join(cfg, new io.ironloop.group.GroupListener() {
            @Override
            public void failed(java.util.Set<Integer> worldRanks) {
                if (worldRanks.contains(worldRank)) {
                    System.out.println("FENCED"); // the others declared this process failed and told it
                }
            }
        });
        int rank = g.rank();
        int victim = switch (args[2]) {
            case "leader" -> g.leader();
            case "next" -> (g.leader() + 1) % g.size();
            default -> Integer.parseInt(args[2]);
        };
        switch (scenario) {
            case "collectives" -> {
                double[] sum = g.allreduce(TestData.values(rank, 200_000), ReduceOp.SUM);
                long[] max = g.allreduce(new long[] {rank, -rank}, ReduceOp.MAX);
                byte[][] all = g.allgather(new byte[] {(byte) rank});
                g.barrier();
                System.out.println("RESULT " + Arrays.hashCode(sum) + " " + Arrays.equals(sum, TestData.expectedSum(g.size(), 200_000))
                        + " " + Arrays.toString(max) + " " + Arrays.deepToString(all));
            }
            case "fail", "largefail" -> {
                // largefail: every rank, the victim too, runs large allreduces (shared memory between these ranks) until
                // the victim is killed in the middle of one, and checks every result it gets
                boolean large = scenario.equals("largefail");
                double[] mine = large ? TestData.values(rank, LARGE) : new double[] {rank};
                double[] expected = large ? TestData.expectedSum(g.size(), LARGE) : null;
                g.allreduce(1.0, ReduceOp.SUM);
                System.out.println("READY " + rank + " leader=" + g.leader() + " victim=" + victim);
                if (rank == victim && !large) {
                    new CountDownLatch(1).await(); // wait to be killed or stopped
                }
                try {
                    do {
                        double[] sum = g.allreduce(mine, ReduceOp.SUM); // in the end, cannot complete without the victim
                        if (large && !Arrays.equals(sum, expected)) {
                            System.out.println("CORRUPT " + rank);
                        }
                    } while (large);
                    System.out.println("NOFAILURE");
                } catch (ProcessFailedException e) {
                    System.out.println("FAILED " + System.currentTimeMillis() + " " + e.failedRanks());
                    ShrinkResult s = g.shrink();
                    ProcessGroup h = s.group();
                    g = h;
                    double sum = h.allreduce((double) rank, ReduceOp.SUM);
                    String after = large ? " large=" + Arrays.equals(h.allreduce(TestData.values(h.rank(), LARGE), ReduceOp.SUM),
                            TestData.expectedSum(h.size(), LARGE)) : "";
                    h.barrier(); // every survivor has its result before anyone leaves
                    System.out.println("SHRUNK " + h.size() + " sum=" + sum + " leaderWorld=" + h.worldRank(Math.max(0, h.leader())) + after);
                }
            }
            case "agree" -> {
                if (rank > 0 && g.size() == 3) { // traffic between the two survivors, long before the kill
                    int other = 3 - rank;
                    g.send(other, 7, new byte[] {1});
                    g.receive(other, 7);
                }
                g.barrier();
                System.out.println("READY " + rank + " leader=" + g.leader() + " victim=" + victim);
                if (rank == victim) {
                    new CountDownLatch(1).await(); // the coordinator never answers: it is killed mid-agreement
                }
                System.out.println("AGREED " + g.agree(100 + rank));
            }
            case "heartbeats" -> {
                g.barrier();
                Diagnostics.Counts before = Diagnostics.counts(g);
                long t0 = System.nanoTime();
                new CountDownLatch(1).await(4, java.util.concurrent.TimeUnit.SECONDS); // a measurement window, not synchronisation
                Diagnostics.Counts after = Diagnostics.counts(g);
                double seconds = (System.nanoTime() - t0) / 1e9;
                double received = g.allreduce((after.heartbeatsReceived() - before.heartbeatsReceived()) / seconds, ReduceOp.SUM);
                double sent = g.allreduce((after.heartbeatsSent() - before.heartbeatsSent()) / seconds, ReduceOp.SUM);
                System.out.println("HEARTBEATS " + received + " " + sent);
            }
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        }
        g.close();
    }
}
