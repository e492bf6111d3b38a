package io.ironloop.examples.device;

import io.ironloop.device.Arg;
import io.ironloop.device.Device;
import io.ironloop.device.DeviceArray;
import io.ironloop.device.DeviceSession;
import io.ironloop.device.Intent;
import io.ironloop.device.Kernel;
import io.ironloop.examples.ResultDigest;
import io.ironloop.format.Scope;
import java.util.function.IntFunction;

/**
 * Floyd–Warshall all-pairs shortest paths on one device (the paper's Floyd): iteration k relaxes every pair
 * through node k, in place (row and column k do not change in iteration k, so the work items are independent).
 * Integer arithmetic: bit-identical on every device kind.
 */
final class Floyd implements DeviceApp {
    static final int INFINITY = 1 << 28;

    static final Kernel FLOYD = Kernel.of("floyd", """
            __kernel void floyd(__global int* d, const int n, const int k) {
                int g = get_global_id(0);
                int i = g / n;
                int j = g % n;
                int via = d[i * n + k] + d[k * n + j];
                if (via < d[g]) {
                    d[g] = via;
                }
            }
            """, (args, from, to) -> {
                int[] d = args.ints(0);
                int n = args.intValue(1);
                int k = args.intValue(2);
                for (int g = from; g < to; g++) {
                    int via = d[(g / n) * n + k] + d[k * n + g % n];
                    if (via < d[g]) {
                        d[g] = via;
                    }
                }
            });

    private final int n;
    private DeviceArray<int[]> dist;

    Floyd(int n) {
        this.n = n;
    }

    @Override
    public String describe() {
        return n + " nodes (" + n + " iterations on one device)";
    }

    @Override
    public int[] settings() {
        return new int[] {n};
    }

    @Override
    public long iterations() {
        return n;
    }

    @Override
    public int checkpointEvery() {
        return Math.max(1, n / 16);
    }

    @Override
    public void allocate(int devices) {
        int[] d = new int[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                long h = (i * 2654435761L + j * 40503L) & 0xffff;
                d[i * n + j] = i == j ? 0 : h % 5 == 0 ? (int) (h % 97) + 1 : INFINITY;
            }
        }
        dist = DeviceArray.of("dist", d);
    }

    @Override
    public void register(DeviceSession session) {
        session.protect("dist", Scope.LOCAL, dist);
    }

    @Override
    public void distribute(int devices) {
        // one device: the paper's Floyd is a single-device application
    }

    @Override
    public void iterate(IntFunction<Device> device, long iteration) {
        device.apply(0).launch(FLOYD, n * n, Arg.readWrite(dist), Arg.of(n), Arg.of((int) iteration));
    }

    @Override
    public void digest(ResultDigest digest) {
        DeviceApp.putInts(digest, dist.host(Intent.READ));
    }
}
