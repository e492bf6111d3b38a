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
 * SUMMA matrix multiplication C = A·B over several devices, a malleable application (the paper's Fig. 6): A and
 * C are unified host images split into blocks of rows, one per device; iteration p adds the product of panel p (8
 * columns of A, 8 rows of B) to every device's block of C. Each element accumulates in the same order on any
 * number of devices, so a restart on another number re-splits the images and ends bit-identical.
 */
final class Summa implements DeviceApp {
    static final int PANEL = 8;

    static final Kernel SUMMA = Kernel.of("summa", """
            #pragma OPENCL FP_CONTRACT OFF
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            __kernel void summa(__global const double* a, __global const double* b, __global double* c,
                                const int n, const int k0, const int w) {
                int g = get_global_id(0);
                int r = g / n;
                int j = g % n;
                double s = c[g];
                for (int k = k0; k < k0 + w; k++) {
                    s = s + a[r * n + k] * b[k * n + j];
                }
                c[g] = s;
            }
            """, (args, from, to) -> {
                double[] a = args.doubles(0);
                double[] b = args.doubles(1);
                double[] c = args.doubles(2);
                int n = args.intValue(3);
                int k0 = args.intValue(4);
                int w = args.intValue(5);
                for (int g = from; g < to; g++) {
                    int r = g / n;
                    int j = g % n;
                    double s = c[g];
                    for (int k = k0; k < k0 + w; k++) {
                        s = s + a[r * n + k] * b[k * n + j];
                    }
                    c[g] = s;
                }
            });

    private final int n;
    private DeviceArray<double[]> a;
    private DeviceArray<double[]> b;
    private DeviceArray<double[]> c;
    private List<DeviceArray<double[]>> aRows;
    private List<DeviceArray<double[]>> cRows;

    Summa(int n) {
        if (n % PANEL != 0) {
            throw new IllegalArgumentException("SUMMA's n must be a multiple of " + PANEL + ", got " + n);
        }
        this.n = n;
    }

    @Override
    public String describe() {
        return n + " x " + n + " doubles, " + n / PANEL + " panels of " + PANEL;
    }

    @Override
    public int[] settings() {
        return new int[] {n};
    }

    @Override
    public long iterations() {
        return n / PANEL;
    }

    @Override
    public int checkpointEvery() {
        return Math.max(1, n / PANEL / 8);
    }

    @Override
    public void allocate(int devices) {
        double[] av = new double[n * n];
        double[] bv = new double[n * n];
        for (int i = 0; i < n * n; i++) {
            av[i] = ((i * 7919L) % 1000) / 1000.0 - 0.5;
            bv[i] = ((i * 104729L) % 997) / 997.0;
        }
        a = DeviceArray.of("a", av);
        b = DeviceArray.of("b", bv);
        c = DeviceArray.of("c", new double[n * n]);
    }

    @Override
    public void register(DeviceSession session) {
        session.protect("a", Scope.LOCAL, a);
        session.protect("b", Scope.LOCAL, b);
        session.protect("c", Scope.LOCAL, c);
    }

    @Override
    public void distribute(int devices) {
        aRows = a.split(Math.min(devices, n), n);
        cRows = c.split(Math.min(devices, n), n);
    }

    @Override
    public void iterate(IntFunction<Device> device, long iteration) {
        for (int d = 0; d < cRows.size(); d++) {
            DeviceArray<double[]> rowsOfC = cRows.get(d);
            device.apply(d).launch(SUMMA, rowsOfC.length(), Arg.read(aRows.get(d)), Arg.read(b), Arg.readWrite(rowsOfC),
                    Arg.of(n), Arg.of((int) iteration * PANEL), Arg.of(PANEL));
        }
    }

    @Override
    public void digest(ResultDigest digest) {
        digest.putDoubles(c.host(Intent.READ));
    }
}
