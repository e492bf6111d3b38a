package io.ironloop.examples.circulation;

import io.ironloop.examples.skeleton.SkeletonApp;
import io.ironloop.runtime.skeleton.Box;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Partition;
import io.ironloop.runtime.skeleton.RoutingPlan;
import java.util.Map;

/**
 * {@link MatrixPower} on the loop skeleton with data circulation: the domain's row {@code c} is column {@code c} of
 * {@code X}, its old values then its new ones ({@code n × 2n}); the partition says which block of columns each part
 * holds at each step and the skeleton moves them on. The rows of {@code A} are rebuilt, never checkpointed.
 */
public final class MatrixPowerSkeleton implements SkeletonApp<Domain2D> {
    private final MatrixPower problem;
    private final double[][] rows;

    /** The kernel of {@code problem}. */
    public MatrixPowerSkeleton(MatrixPower problem) {
        this.problem = problem;
        this.rows = new double[problem.parts()][];
    }

    @Override
    public String name() {
        return "circulation";
    }

    @Override
    public Box domain() {
        return Box.ofExtents(problem.n(), 2 * problem.n());
    }

    @Override
    public int parts() {
        return problem.parts();
    }

    @Override
    public RoutingPlan.Kind communication() {
        return RoutingPlan.Kind.CIRCULATION;
    }

    @Override
    public Partition partition() {
        return new Partition() {
            @Override
            public Box possessed(int part, int parts, long step) {
                int m = problem.block();
                int b = problem.travellerAt(part, step);
                return Box.of(new int[] {b * m, 0}, new int[] {(b + 1) * m, 2 * problem.n()});
            }

            @Override
            public Box needed(int part, int parts, long step) {
                return possessed(part, parts, step);
            }
        };
    }

    @Override
    public Map<String, String> settings() {
        return problem.settings();
    }

    @Override
    public long begin() {
        return 0;
    }

    @Override
    public long end() {
        return problem.steps();
    }

    @Override
    public long next(long step) {
        return step + 1;
    }

    @Override
    public void init(int part, Domain2D read, Domain2D write) {
        for (int c = read.box().lo(0); c < read.box().hi(0); c++) {
            for (int i = 0; i < problem.n(); i++) {
                read.set(c, i, problem.initial(i, c));
            }
        }
    }

    @Override
    public void calculate(Domain2D read, Domain2D write, Box possessed, long step) {
        int n = problem.n();
        int part = Math.floorMod(possessed.lo(0) / problem.block() + (int) (step % parts()), parts());
        if (rows[part] == null) {
            rows[part] = problem.rowsOf(part);
        }
        for (int c = possessed.lo(0); c < possessed.hi(0); c++) {
            int i = read.index(c, 0);
            int o = write.index(c, 0);
            System.arraycopy(read.data(), i, write.data(), o, 2 * n);
            problem.multiply(rows[part], part, read.data(), i, write.data(), o + n);
            if (problem.endsRound(step)) {
                System.arraycopy(write.data(), o + n, write.data(), o, n);
            }
        }
    }

    @Override
    public double[] resultRows(Domain2D read, Box possessed) {
        int n = problem.n();
        double[] out = new double[possessed.extent(0) * n];
        for (int c = possessed.lo(0); c < possessed.hi(0); c++) {
            System.arraycopy(read.data(), read.index(c, 0), out, (c - possessed.lo(0)) * n, n);
        }
        return out;
    }
}
