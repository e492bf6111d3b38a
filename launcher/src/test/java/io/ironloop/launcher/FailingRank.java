package io.ironloop.launcher;

import io.ironloop.ConfigurationException;
import io.ironloop.group.ReduceOp;
import io.ironloop.runtime.Ironloop;
import java.util.Map;

/**
 * A rank program for launcher tests that throws at a chosen iteration: a counter summed over the ranks
 * every iteration (global state, saved every iteration), and on one rank at one iteration an exception —
 * an application error, the same in every attempt, or a configuration error. In mode {@code disk} nobody
 * throws, but the global state carries a {@value #DISK_DOUBLES}-double array of fresh values every
 * iteration, to fill a small file system.
 *
 * <p>Usage: {@code FailingRank RANK ITERATION state|config|disk PAUSE_MS ITERATIONS}.
 */
public final class FailingRank {
    /** Doubles of the global array in mode {@code disk}: 128 KiB a line. */
    static final int DISK_DOUBLES = 16384;

    private FailingRank() {
    }

    public static void main(String[] args) throws InterruptedException {
        int throwRank = Integer.parseInt(args[0]);
        long throwAt = Long.parseLong(args[1]);
        boolean configuration = args[2].equals("config");
        double[] bulk = new double[args[2].equals("disk") ? DISK_DOUBLES : 0];
        long pause = Long.parseLong(args[3]);
        long iterations = Long.parseLong(args[4]);
        try (Ironloop ft = Ironloop.start(Map.of("app", "failing", "iterations", iterations))) {
            long[] counter = new long[1];
            ft.registerGlobal("counter", counter);
            ft.registerGlobal("bulk", bulk);
            if (ft.canRecoverGlobal()) {
                ft.readGlobal();
            }
            ft.plan(iterations);
            for (long i = ft.iteration(); i < iterations; i++) {
                if (ft.rank() == throwRank && i == throwAt) {
                    if (configuration) {
                        throw new ConfigurationException("SOLVER_TOLERANCE -1 at iteration " + i + ": must be positive");
                    }
                    throw new IllegalStateException("the solution diverged at iteration " + i);
                }
                java.util.SplittableRandom values = new java.util.SplittableRandom(i);
                for (int k = 0; k < bulk.length; k++) {
                    bulk[k] = values.nextDouble();
                }
                Thread.sleep(pause);
                counter[0] += ft.group().allreduce(1L, ReduceOp.SUM);
                ft.saveGlobal();
            }
            ft.complete("count=" + counter[0]);
            if (ft.rank() == 0) {
                System.out.println("count=" + counter[0]);
            }
        }
    }
}
