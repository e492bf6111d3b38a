package io.ironloop.examples.skeleton;

import io.ironloop.examples.blocks.heat.HeatBlocksConfig;
import io.ironloop.runtime.skeleton.Box;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Partition;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The 2-D heat example of {@link io.ironloop.examples.blocks.heat.HeatBlocks} on the loop skeleton: the same
 * Jacobi steps, edges and field, bit for bit, but the application writes only the kernel below — the skeleton
 * splits the domain into slabs, exchanges their borders, checkpoints and recovers. Coordinates {@code (y, x)} over
 * the interior and its one-cell edge ring, the north row ({@code y = ny + 1}) hot, the others cold. Its rank program
 * is {@link HeatSkeletonRank}, on {@link SkeletonRankMain} like the other skeleton examples.
 */
public final class HeatSkeleton implements SkeletonApp<Domain2D> {
    /** Parts of the domain: a restart may use 1 to this many ranks. */
    public static final int PARTS = 8;

    private final HeatBlocksConfig config;
    private final int nx;
    private final int ny;

    /** The kernel for {@code config}. */
    public HeatSkeleton(HeatBlocksConfig config) {
        this.config = config;
        this.nx = config.grid().totalX();
        this.ny = config.grid().totalY();
    }

    @Override
    public String name() {
        return "heat-skeleton";
    }

    /** The interior and its edge ring. */
    @Override
    public Box domain() {
        return Box.ofExtents(ny + 2, nx + 2);
    }

    @Override
    public int parts() {
        return PARTS;
    }

    /** Row slabs with one shadow row on each side. */
    @Override
    public Partition partition() {
        return Partition.slabs(domain(), 0, 1);
    }

    /** The settings fingerprinted into the disk lines. */
    @Override
    public Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>(config.settings());
        s.put("app", "heat-skeleton");
        s.put("parts", Integer.toString(PARTS));
        return s;
    }

    @Override
    public long begin() {
        return 0;
    }

    @Override
    public long end() {
        return config.steps();
    }

    @Override
    public long next(long step) {
        return step + 1;
    }

    @Override
    public void init(int part, Domain2D read, Domain2D write) {
        for (Domain2D d : new Domain2D[] {read, write}) {
            java.util.Arrays.fill(d.data(), config.cold());
            if (d.box().hi(0) == ny + 2) {
                java.util.Arrays.fill(d.data(), d.index(ny + 1, 1), d.index(ny + 1, nx + 1), config.hot());
            }
        }
    }

    @Override
    public void calculate(Domain2D read, Domain2D write, Box possessed, long step) {
        double[] a = read.data();
        double[] b = write.data();
        int s = read.stride(0);
        for (int y = possessed.lo(0); y < possessed.hi(0); y++) {
            int i = read.index(y, 0);
            int o = write.index(y, 0);
            if (y == 0 || y == ny + 1) {
                System.arraycopy(a, i, b, o, nx + 2); // the edge rows stay as they are
                continue;
            }
            b[o] = a[i];
            b[o + nx + 1] = a[i + nx + 1];
            for (int x = 1; x <= nx; x++) {
                b[o + x] = 0.25 * (a[i + x - 1] + a[i + x + 1] + a[i + x - s] + a[i + x + s]);
            }
        }
    }

    /** The part's rows of the field, edge columns included. */
    @Override
    public double[] resultRows(Domain2D read, Box possessed) {
        double[] out = new double[(int) possessed.size()];
        read.copyOut(possessed, out, 0);
        return out;
    }
}
