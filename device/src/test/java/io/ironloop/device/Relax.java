package io.ironloop.device;

/**
 * Test kernels with both implementations and identical arithmetic per work item, so that Java and OpenCL results
 * are bit-identical: {@code relax} updates a part of {@code x} from the whole of {@code b}; {@code sum} adds a
 * slice of an int array into one element of a per-device long array.
 */
final class Relax {
    static final Kernel RELAX = Kernel.of("relax", """
            #pragma OPENCL FP_CONTRACT OFF
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            __kernel void relax(__global double* x, __global const double* b, const int n, const int offset, const int step) {
                int i = get_global_id(0);
                int g = offset + i;
                x[i] = 0.75 * x[i] + 0.25 * b[(g * 7 + step) % n];
            }
            """, (args, from, to) -> {
                double[] x = args.doubles(0);
                double[] b = args.doubles(1);
                int n = args.intValue(2);
                int offset = args.intValue(3);
                int step = args.intValue(4);
                for (int i = from; i < to; i++) {
                    int g = offset + i;
                    x[i] = 0.75 * x[i] + 0.25 * b[(g * 7 + step) % n];
                }
            });

    /** Writes every element of {@code out} from {@code in}: out[i] = in[i] * 2. */
    static final Kernel DOUBLE_IT = Kernel.of("double_it", """
            __kernel void double_it(__global const int* in, __global int* out) {
                int i = get_global_id(0);
                out[i] = in[i] * 2;
            }
            """, (args, from, to) -> {
                int[] in = args.ints(0);
                int[] out = args.ints(1);
                for (int i = from; i < to; i++) {
                    out[i] = in[i] * 2;
                }
            });

    /** sums[v] += sum of the slice [from, to) of values; one work item. */
    static final Kernel SUM = Kernel.of("sum_slice", """
            __kernel void sum_slice(__global const int* values, __global long* sums, const int v, const int from, const int to) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += values[i];
                }
                sums[v] += s;
            }
            """, (args, ignoredFrom, ignoredTo) -> {
                int[] values = args.ints(0);
                long[] sums = args.longs(1);
                int v = args.intValue(2);
                long s = 0;
                for (int i = args.intValue(3); i < args.intValue(4); i++) {
                    s += values[i];
                }
                sums[v] += s;
            });

    private Relax() {
    }

    static double[] initialX(int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (i * 7919 % 1000) / 10.0;
        }
        return x;
    }

    static double[] initialB(int n) {
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            b[i] = (i * 104729 % 997) / 7.0;
        }
        return b;
    }
}
