package io.ironloop.examples.quickstart;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.ironloop.group.ReduceOp;
import io.ironloop.runtime.Completion;
import io.ironloop.runtime.Ironloop;

/**
 * DeLIA's quick-start program (Listing 8) as one rank of a fault-tolerant job: run it with
 * {@code bin/ironloop run -n 4 --restarts 3 [--params delia_param.json] -- io.ironloop.examples.quickstart.QuickstartRank
 * [dataSize [iterations [millisPerIteration]]]}; the pause stands for computation, so that faults can land mid-run. Rank 0 prints {@code result sha256=<hex>} on standard output, identical to
 * {@link Quickstart#main} for the same sizes and number of ranks, however often the job was killed and
 * restarted on the way.
 */
public final class QuickstartRank {
    private QuickstartRank() {
    }

    /**
     * Entry point.
     *
     * @param args optional data size, iteration count and pause per iteration (ms)
     */
    public static void main(String[] args) {
        int dataSize = args.length > 0 ? Integer.parseInt(args[0]) : Quickstart.DEFAULT_DATA_SIZE;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : Quickstart.DEFAULT_ITERATIONS;
        long pauseMillis = args.length > 2 ? Long.parseLong(args[2]) : 0;
        Map<String, Object> settings = Map.of("app", "quickstart", "dataSize", dataSize, "iterations", iterations);
        try (Ironloop ft = Ironloop.start(settings)) {
            Optional<Completion> done = ft.completion();
            if (done.isPresent()) {
                if (ft.rank() == 0) {
                    System.err.println("already complete (" + ft.folder() + "); run with FRESH=true or ironloop run --fresh to start over");
                    System.out.println(done.get().result());
                }
                return;
            }
            Quickstart app = new Quickstart(ft.rank(), dataSize, iterations);
            ft.registerGlobal("global_data", app.globalData());
            ft.registerGlobal("progress", app.progress());
            ft.registerLocal("local_data", app.localData());
            ft.resume();
            ft.plan(iterations); // optional: lets ironloop run refuse a --fail past the end at once
            while (!app.isFinished()) {
                app.computeLocal();
                pause(pauseMillis);
                double[] sum = ft.group().allreduce(app.localData(), ReduceOp.SUM);
                System.arraycopy(sum, 0, app.globalData(), 0, sum.length);
                app.completeIteration();
                if (ft.rank() == 0) {
                    System.err.printf(Locale.ROOT, "Iteration %d ends%n", app.iteration() - 1);
                }
                ft.endIteration();
            }
            ft.complete(app.resultLine());
            if (ft.rank() == 0) {
                System.out.println(app.resultLine());
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
