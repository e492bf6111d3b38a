package io.ironloop.examples.device;

import io.ironloop.device.Arg;
import io.ironloop.device.Device;
import io.ironloop.device.DeviceArray;
import io.ironloop.device.DeviceSession;
import io.ironloop.device.Intent;
import io.ironloop.device.Kernel;
import io.ironloop.examples.ResultDigest;
import io.ironloop.format.Scope;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A shallow-water simulation over several devices (after the paper's Shwalls): water height h and velocities u,
 * v on a periodic grid, advanced by a Lax–Friedrichs step; each device computes a block of rows of the new state
 * from the whole old state, and the host makes the new state the old one. Each virtual device also keeps its own
 * running sum of the water in its rows — per-device partial results that the application combines only at the
 * end, in device order. Their number is part of the saved state, so the application is pseudo-malleable (the
 * paper's Fig. 5): it registers its distribution, and a restart on another number of physical devices keeps the
 * virtual ones and ends bit-identical.
 */
final class ShallowWater implements DeviceApp {
    private static final double G = 9.81;
    /** dt / (2 dx), well inside the Lax–Friedrichs stability limit for depths near 1. */
    private static final double C = 0.05;

    static final Kernel STEP = Kernel.of("shallow_water", """
            #pragma OPENCL FP_CONTRACT OFF
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            __kernel void shallow_water(__global const double* h, __global const double* u, __global const double* v,
                                        __global double* hn, __global double* un, __global double* vn,
                                        const int nx, const int ny, const int row0) {
                int g = get_global_id(0);
                int r = row0 + g / nx;
                int col = g % nx;
                int e = r * nx + (col + 1) % nx;
                int w = r * nx + (col + nx - 1) % nx;
                int nn = ((r + 1) % ny) * nx + col;
                int s = ((r + ny - 1) % ny) * nx + col;
                hn[g] = 0.25 * (h[e] + h[w] + h[nn] + h[s]) - 0.05 * (h[e] * u[e] - h[w] * u[w] + h[nn] * v[nn] - h[s] * v[s]);
                un[g] = 0.25 * (u[e] + u[w] + u[nn] + u[s]) - 0.05 * ((0.5 * u[e] * u[e] + 9.81 * h[e]) - (0.5 * u[w] * u[w] + 9.81 * h[w]));
                vn[g] = 0.25 * (v[e] + v[w] + v[nn] + v[s]) - 0.05 * ((0.5 * v[nn] * v[nn] + 9.81 * h[nn]) - (0.5 * v[s] * v[s] + 9.81 * h[s]));
            }
            """, (args, from, to) -> {
                double[] h = args.doubles(0);
                double[] u = args.doubles(1);
                double[] v = args.doubles(2);
                double[] hn = args.doubles(3);
                double[] un = args.doubles(4);
                double[] vn = args.doubles(5);
                int nx = args.intValue(6);
                int ny = args.intValue(7);
                int row0 = args.intValue(8);
                for (int g = from; g < to; g++) {
                    int r = row0 + g / nx;
                    int col = g % nx;
                    int e = r * nx + (col + 1) % nx;
                    int w = r * nx + (col + nx - 1) % nx;
                    int nn = ((r + 1) % ny) * nx + col;
                    int s = ((r + ny - 1) % ny) * nx + col;
                    hn[g] = 0.25 * (h[e] + h[w] + h[nn] + h[s]) - C * (h[e] * u[e] - h[w] * u[w] + h[nn] * v[nn] - h[s] * v[s]);
                    un[g] = 0.25 * (u[e] + u[w] + u[nn] + u[s]) - C * ((0.5 * u[e] * u[e] + G * h[e]) - (0.5 * u[w] * u[w] + G * h[w]));
                    vn[g] = 0.25 * (v[e] + v[w] + v[nn] + v[s]) - C * ((0.5 * v[nn] * v[nn] + G * h[nn]) - (0.5 * v[s] * v[s] + G * h[s]));
                }
            });

    private final int nx;
    private final int ny;
    private final int steps;
    private DeviceArray<double[]> h;
    private DeviceArray<double[]> u;
    private DeviceArray<double[]> v;
    private final DeviceArray<double[]> hn;
    private final DeviceArray<double[]> un;
    private final DeviceArray<double[]> vn;
    private double[] water;
    private List<DeviceArray<double[]>> hParts;
    private List<DeviceArray<double[]>> uParts;
    private List<DeviceArray<double[]>> vParts;

    ShallowWater(int nx, int ny, int steps) {
        this.nx = nx;
        this.ny = ny;
        this.steps = steps;
        this.hn = DeviceArray.of("hn", new double[nx * ny]);
        this.un = DeviceArray.of("un", new double[nx * ny]);
        this.vn = DeviceArray.of("vn", new double[nx * ny]);
    }

    @Override
    public String describe() {
        return nx + " x " + ny + " cells, " + steps + " steps";
    }

    @Override
    public int[] settings() {
        return new int[] {nx, ny, steps};
    }

    @Override
    public long iterations() {
        return steps;
    }

    @Override
    public int checkpointEvery() {
        return Math.max(1, steps / 10);
    }

    @Override
    public int distribution(DeviceSession session) {
        return session.preserveDistribution(Math.min(session.devices().size(), ny));
    }

    @Override
    public void allocate(int devices) {
        double[] hv = new double[nx * ny];
        for (int r = 0; r < ny; r++) {
            for (int col = 0; col < nx; col++) {
                double dx = (col - nx / 3.0) / (nx / 10.0);
                double dy = (r - ny / 2.0) / (ny / 10.0);
                hv[r * nx + col] = 1.0 + 0.4 * Math.exp(-(dx * dx + dy * dy)); // host code: Java's exp on every device kind
            }
        }
        h = DeviceArray.of("h", hv);
        u = DeviceArray.of("u", new double[nx * ny]);
        v = DeviceArray.of("v", new double[nx * ny]);
        water = new double[devices];
    }

    @Override
    public void register(DeviceSession session) {
        session.protect("h", Scope.LOCAL, h);
        session.protect("u", Scope.LOCAL, u);
        session.protect("v", Scope.LOCAL, v);
        session.engine().protect("water", Scope.LOCAL, water);
    }

    @Override
    public void distribute(int devices) {
        hParts = hn.split(devices, nx);
        uParts = un.split(devices, nx);
        vParts = vn.split(devices, nx);
    }

    @Override
    public void iterate(IntFunction<Device> device, long iteration) {
        for (int d = 0; d < hParts.size(); d++) {
            DeviceArray<double[]> part = hParts.get(d);
            device.apply(d).launch(STEP, part.length(), Arg.read(h), Arg.read(u), Arg.read(v), Arg.write(part),
                    Arg.write(uParts.get(d)), Arg.write(vParts.get(d)), Arg.of(nx), Arg.of(ny), Arg.of(part.offset() / nx));
        }
        double[] newH = hn.host(Intent.READ);
        System.arraycopy(newH, 0, h.host(Intent.WRITE), 0, newH.length);
        System.arraycopy(un.host(Intent.READ), 0, u.host(Intent.WRITE), 0, newH.length);
        System.arraycopy(vn.host(Intent.READ), 0, v.host(Intent.WRITE), 0, newH.length);
        for (int d = 0; d < hParts.size(); d++) {
            DeviceArray<double[]> part = hParts.get(d);
            double sum = 0;
            for (int i = part.offset(); i < part.offset() + part.length(); i++) {
                sum += newH[i];
            }
            water[d] += sum;
        }
    }

    @Override
    public void digest(ResultDigest digest) {
        digest.putDoubles(h.host(Intent.READ)).putDoubles(u.host(Intent.READ)).putDoubles(v.host(Intent.READ)).putDoubles(water);
    }
}
