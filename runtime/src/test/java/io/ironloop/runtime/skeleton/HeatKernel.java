package io.ironloop.runtime.skeleton;

import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * Jacobi steps of 2-D heat on an {@code n × n} interior with a one-cell edge ring held fixed (north row hot),
 * coordinates {@code (y, x)}; {@code beforeStep} lets a test crash or stop a rank at a chosen step, {@code communicate}
 * is the communication condition.
 */
final class HeatKernel implements Kernel<Domain2D> {
    static final int N = 16;
    static final Box DOMAIN = Box.ofExtents(N + 2, N + 2);

    private final long steps;
    private final LongConsumer beforeStep;
    private final LongPredicate communicate;

    HeatKernel(long steps, LongConsumer beforeStep) {
        this(steps, beforeStep, s -> true);
    }

    HeatKernel(long steps, LongConsumer beforeStep, LongPredicate communicate) {
        this.steps = steps;
        this.beforeStep = beforeStep;
        this.communicate = communicate;
    }

    @Override
    public boolean communicate(long step) {
        return communicate.test(step);
    }

    @Override
    public long begin() {
        return 0;
    }

    @Override
    public long end() {
        return steps;
    }

    @Override
    public long next(long step) {
        return step + 1;
    }

    @Override
    public void init(int part, Domain2D read, Domain2D write) {
        for (Domain2D d : new Domain2D[] {read, write}) {
            Box b = d.box();
            if (b.hi(0) == N + 2) {
                for (int x = Math.max(1, b.lo(1)); x < Math.min(N + 1, b.hi(1)); x++) {
                    d.set(N + 1, x, 1.0);
                }
            }
        }
    }

    @Override
    public void calculate(Domain2D read, Domain2D write, Box possessed, long step) {
        beforeStep.accept(step);
        for (int y = possessed.lo(0); y < possessed.hi(0); y++) {
            for (int x = possessed.lo(1); x < possessed.hi(1); x++) {
                boolean edge = y == 0 || x == 0 || y == N + 1 || x == N + 1;
                write.set(y, x, edge ? read.get(y, x)
                        : 0.25 * (read.get(y, x - 1) + read.get(y, x + 1) + read.get(y - 1, x) + read.get(y + 1, x)));
            }
        }
    }

    /** The same computation in one plain array, for comparison: the field after {@code steps} steps. */
    static double[][] reference(long steps) {
        double[][] u = new double[N + 2][N + 2];
        double[][] v = new double[N + 2][N + 2];
        for (int x = 1; x <= N; x++) {
            u[N + 1][x] = 1.0;
            v[N + 1][x] = 1.0;
        }
        for (long s = 0; s < steps; s++) {
            for (int y = 1; y <= N; y++) {
                for (int x = 1; x <= N; x++) {
                    v[y][x] = 0.25 * (u[y][x - 1] + u[y][x + 1] + u[y - 1][x] + u[y + 1][x]);
                }
            }
            double[][] t = u;
            u = v;
            v = t;
        }
        return u;
    }
}
