package io.ironloop.examples.fwi;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Runs a complete inversion on one thread, without fault tolerance: the failure-free reference.
 *
 * <p>Usage: {@code FwiMain [test|demo]} (default {@code demo}). Progress, one line per round with
 * the misfit and the time per shot (round 0 includes modelling the observed data), goes to standard
 * error; standard output carries only the final {@code result sha256=<hex>} line. A usage error
 * exits with status 2.
 */
public final class FwiMain {

    private FwiMain() {
    }

    /**
     * Entry point.
     *
     * @param args {@code test} or {@code demo}, optional
     */
    public static void main(String[] args) {
        String size = args.length == 0 ? "demo" : args[0];
        if (args.length > 1 || !(size.equals("test") || size.equals("demo"))) {
            System.err.println("usage: FwiMain [test|demo]");
            System.exit(2);
        }
        FwiConfig config = size.equals("test") ? FwiConfig.test() : FwiConfig.demo();
        PrintStream log = System.err;
        FwiProblem problem = new FwiProblem(config);
        log.printf(Locale.ROOT, "fwi %s: %d x %d cells, %d shots, %d receivers, %d time steps, "
                        + "%d iterations%n", size, config.nx(), config.nz(), config.shots(),
                config.receivers(), problem.steps(), config.maxIterations());
        FwiInversion inversion = new FwiInversion(problem);
        long start = System.nanoTime();
        long[] roundStart = {start};
        inversion.run(new FwiListener() {
            @Override
            public void roundCompleted(long round, boolean accepted, FwiState state) {
                long now = System.nanoTime();
                double[] misfits = state.misfitHistory();
                log.printf(Locale.ROOT, "round %d: %s, iteration %d, misfit %.6g, %.1f ms/shot%n",
                        round, accepted ? "accepted" : "backtracked", state.iteration(),
                        misfits[misfits.length - 1],
                        (now - roundStart[0]) / 1e6 / config.shots());
                roundStart[0] = now;
            }
        });
        log.printf(Locale.ROOT, "%s after %d iterations in %d rounds, %.2f s%n",
                inversion.state().phase(), inversion.state().iteration(), inversion.round(),
                (System.nanoTime() - start) / 1e9);
        System.out.println(inversion.resultLine());
    }
}
