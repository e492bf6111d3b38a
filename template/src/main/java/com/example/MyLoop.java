package com.example;

import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ReduceOp;
import io.ironloop.runtime.Ironloop;
import java.util.Locale;
import java.util.Map;

/**
 * A fault-tolerant iterative program: every rank computes its part, the parts are summed across the ranks,
 * and the sum is folded into a field that every rank holds. Ironloop saves the field and the step after each
 * iteration (global state) and a rank's own part when a trigger fires (local state); a job killed at any
 * point and started again resumes from the last saved step and prints the same result as a run that never
 * failed.
 *
 * <p>Usage: {@code MyLoop [cells [steps [millisPerStep]]]}; rank 0 prints {@code result <value>} on
 * standard output. Exit status: 0 done, {@value #PEER_LOST} when another rank was lost (this rank saved what
 * it could; restart the job), 128 + signal after a termination signal's save, 1 on any other error.
 */
public final class MyLoop {
    /** Exit status of a rank that lost a peer (EX_TEMPFAIL): a Kubernetes pod failure policy ignores it. */
    public static final int PEER_LOST = 75;

    private MyLoop() {
    }

    public static void main(String[] args) throws InterruptedException {
        try {
            run(args);
        } catch (ProcessFailedException e) { // thrown by the next group operation after a rank was lost
            System.err.println("a rank was lost; this rank saved its state and exits " + PEER_LOST + " to be restarted: " + e.getMessage());
            System.exit(PEER_LOST);
        }
    }

    private static void run(String[] args) throws InterruptedException {
        int cells = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        long pause = args.length > 2 ? Long.parseLong(args[2]) : 0; // stands for real computation
        // the settings: a checkpoint made with other settings is never restored
        try (Ironloop ft = Ironloop.start(Map.of("cells", cells, "steps", steps))) {
            if (ft.completion().isPresent()) { // an earlier run of this job finished: print its result again
                if (ft.rank() == 0) {
                    System.out.println(ft.completion().get().result());
                }
                return;
            }
            double[] field = new double[cells]; // the same on every rank
            long[] step = {0};
            double[] mine = new double[cells]; // this rank's own part
            ft.registerGlobal("field", field);
            ft.registerGlobal("step", step);
            ft.registerLocal("mine", mine);
            if (ft.canRecoverGlobal()) {
                ft.readGlobal(); // resume where the last run stopped
            }
            ft.startHeartbeatMonitoring();
            ft.plan(steps); // lets ironloop run check its --fail points against the last step
            while (step[0] < steps) {
                part(ft.rank(), step[0], mine);
                Thread.sleep(pause);
                ft.publishLocal();
                double[] sum = ft.group().allreduce(mine, ReduceOp.SUM);
                fold(field, sum);
                step[0]++;
                ft.saveGlobal();
            }
            String result = String.format(Locale.ROOT, "result %.3f", total(field));
            ft.complete(result);
            if (ft.rank() == 0) {
                System.out.println(result);
            }
        }
    }

    /** Rank {@code rank}'s part at {@code step}: small integers, so every sum below is exact. */
    public static void part(int rank, long step, double[] mine) {
        for (int i = 0; i < mine.length; i++) {
            mine[i] = (rank + 1) * ((i + step) % 7);
        }
    }

    /** One step of the field: halve it and add the ranks' sum. */
    public static void fold(double[] field, double[] sum) {
        for (int i = 0; i < field.length; i++) {
            field[i] = 0.5 * field[i] + sum[i];
        }
    }

    /** The sum of the field's cells. */
    public static double total(double[] field) {
        double t = 0;
        for (double v : field) {
            t += v;
        }
        return t;
    }
}
