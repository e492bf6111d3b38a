package io.ironloop.examples.swing;

import io.ironloop.examples.skeleton.SkeletonApp;
import io.ironloop.runtime.skeleton.Box;
import io.ironloop.runtime.skeleton.Domain2D;
import io.ironloop.runtime.skeleton.Partition;
import java.util.Map;

/**
 * {@link GasStorage} on the loop skeleton: steps run backwards from {@code T − 1} to 0, each computing {@code V(t, ·)}
 * from {@code V(t + 1, ·)}; the partition follows the reachable levels, so subdomains and shadow regions change every
 * step and the skeleton moves the rows between parts.
 */
public final class GasStorageSkeleton implements SkeletonApp<Domain2D> {
    private final GasStorage storage;

    /** The kernel of {@code storage}. */
    public GasStorageSkeleton(GasStorage storage) {
        this.storage = storage;
    }

    @Override
    public String name() {
        return "swing";
    }

    @Override
    public Box domain() {
        return Box.ofExtents(storage.levels(), storage.paths());
    }

    @Override
    public int parts() {
        return storage.parts();
    }

    @Override
    public Partition partition() {
        return new Partition() {
            @Override
            public Box possessed(int part, int parts, long step) {
                int[] b = storage.bounds((int) step);
                return Box.of(new int[] {b[part], 0}, new int[] {b[part + 1], storage.paths()});
            }

            @Override
            public Box needed(int part, int parts, long step) {
                int[] n = storage.needed(part, (int) step);
                return Box.of(new int[] {n[0], 0}, new int[] {n[1], storage.paths()});
            }
        };
    }

    @Override
    public Map<String, String> settings() {
        return storage.settings();
    }

    @Override
    public long begin() {
        return storage.steps() - 1;
    }

    @Override
    public long end() {
        return -1;
    }

    @Override
    public long next(long step) {
        return step - 1;
    }

    @Override
    public void init(int part, Domain2D read, Domain2D write) {
        // V(T, ·) = 0: the domains start zero-filled
    }

    @Override
    public void calculate(Domain2D read, Domain2D write, Box possessed, long step) {
        storage.compute((int) step, possessed.lo(0), possessed.hi(0), read.data(), read.box().lo(0), write.data(), write.box().lo(0));
    }

    @Override
    public double[] resultRows(Domain2D read, Box possessed) {
        return java.util.Arrays.copyOfRange(read.data(), read.index(possessed.lo(0), 0), read.index(possessed.lo(0), 0) + (int) possessed.size());
    }
}
