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
 * Sparse matrix-vector products on one device (the paper's SHOC Spmv): a CSR matrix with 16 entries per row,
 * iterated as x ← A·x + c with two vectors used in turn (even iterations write y from x, odd ones x from y). Each
 * row sums in index order without fused multiply-adds, so Java and OpenCL agree bit for bit. Only the vectors
 * change: the consistency protocol brings home one or two of the six registered arrays.
 */
final class Spmv implements DeviceApp {
    static final int PER_ROW = 16;

    static final Kernel SPMV = Kernel.of("spmv", """
            #pragma OPENCL FP_CONTRACT OFF
            __kernel void spmv(__global const int* rowptr, __global const int* cols, __global const float* vals,
                               __global const float* x, __global const float* c, __global float* y) {
                int i = get_global_id(0);
                float s = 0.0f;
                for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
                    s = s + vals[k] * x[cols[k]];
                }
                y[i] = s + c[i];
            }
            """, (args, from, to) -> {
                int[] rowptr = args.ints(0);
                int[] cols = args.ints(1);
                float[] vals = args.floats(2);
                float[] x = args.floats(3);
                float[] c = args.floats(4);
                float[] y = args.floats(5);
                for (int i = from; i < to; i++) {
                    float s = 0.0f;
                    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
                        s = s + vals[k] * x[cols[k]];
                    }
                    y[i] = s + c[i];
                }
            });

    private final int rows;
    private final int iterations;
    private DeviceArray<int[]> rowptr;
    private DeviceArray<int[]> cols;
    private DeviceArray<float[]> vals;
    private DeviceArray<float[]> x;
    private DeviceArray<float[]> y;
    private DeviceArray<float[]> c;

    Spmv(int rows, int iterations) {
        this.rows = rows;
        this.iterations = iterations;
    }

    @Override
    public String describe() {
        return rows + " rows x " + PER_ROW + " entries, " + iterations + " products on one device";
    }

    @Override
    public int[] settings() {
        return new int[] {rows, iterations};
    }

    @Override
    public long iterations() {
        return iterations;
    }

    @Override
    public int checkpointEvery() {
        return Math.max(1, iterations / 10);
    }

    @Override
    public void allocate(int devices) {
        int[] rp = new int[rows + 1];
        int[] cs = new int[rows * PER_ROW];
        float[] vs = new float[rows * PER_ROW];
        float[] cv = new float[rows];
        float[] xv = new float[rows];
        for (int i = 0; i < rows; i++) {
            rp[i + 1] = (i + 1) * PER_ROW;
            for (int t = 0; t < PER_ROW; t++) {
                cs[i * PER_ROW + t] = (int) ((i * 31L + t * 977L + (long) t * t * 7919L) % rows);
                vs[i * PER_ROW + t] = ((i + t) % 7 + 1) / 128f;
            }
            cv[i] = (i % 13) / 16f;
            xv[i] = 1f;
        }
        rowptr = DeviceArray.of("rowptr", rp);
        cols = DeviceArray.of("cols", cs);
        vals = DeviceArray.of("vals", vs);
        c = DeviceArray.of("c", cv);
        x = DeviceArray.of("x", xv);
        y = DeviceArray.of("y", new float[rows]);
    }

    @Override
    public void register(DeviceSession session) {
        session.protect("rowptr", Scope.LOCAL, rowptr);
        session.protect("cols", Scope.LOCAL, cols);
        session.protect("vals", Scope.LOCAL, vals);
        session.protect("c", Scope.LOCAL, c);
        session.protect("x", Scope.LOCAL, x);
        session.protect("y", Scope.LOCAL, y);
    }

    @Override
    public void distribute(int devices) {
        // one device: the paper's Spmv is a single-device application
    }

    @Override
    public void iterate(IntFunction<Device> device, long iteration) {
        DeviceArray<float[]> in = iteration % 2 == 0 ? x : y;
        DeviceArray<float[]> out = iteration % 2 == 0 ? y : x;
        device.apply(0).launch(SPMV, rows, Arg.read(rowptr), Arg.read(cols), Arg.read(vals), Arg.read(in), Arg.read(c), Arg.write(out));
    }

    @Override
    public void digest(ResultDigest digest) {
        DeviceApp.putFloats(digest, (iterations % 2 == 0 ? x : y).host(Intent.READ));
    }
}
