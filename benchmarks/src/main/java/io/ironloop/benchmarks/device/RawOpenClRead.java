package io.ironloop.benchmarks.device;

import static org.jocl.CL.CL_DEVICE_TYPE_ALL;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clGetDeviceIDs;
import static org.jocl.CL.clGetPlatformIDs;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseContext;
import static org.jocl.CL.clReleaseMemObject;

import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;

/**
 * The reference of the transfer figure: a plain blocking {@code clEnqueueReadBuffer} of a buffer into a Java array,
 * on the first OpenCL device, in a context of its own, with no tracking at all.
 */
final class RawOpenClRead implements AutoCloseable {
    private final cl_context context;
    private final cl_command_queue queue;
    private final cl_mem buffer;
    private final float[] into;

    RawOpenClRead(int floats) {
        CL.setExceptionsEnabled(true);
        cl_platform_id[] platform = new cl_platform_id[1];
        clGetPlatformIDs(1, platform, null);
        cl_device_id[] device = new cl_device_id[1];
        clGetDeviceIDs(platform[0], CL_DEVICE_TYPE_ALL, 1, device, null);
        context = clCreateContext(null, 1, device, null, null, null);
        queue = clCreateCommandQueue(context, device[0], 0, null);
        buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, (long) floats * Float.BYTES, null, null);
        into = new float[floats];
        java.util.Arrays.fill(into, 1f);
        clEnqueueWriteBuffer(queue, buffer, true, 0, (long) floats * Float.BYTES, Pointer.to(into), 0, null, null);
    }

    /** One blocking read of the whole buffer; returns its nanoseconds. */
    long read() {
        long start = System.nanoTime();
        clEnqueueReadBuffer(queue, buffer, true, 0, (long) into.length * Float.BYTES, Pointer.to(into), 0, null, null);
        return System.nanoTime() - start;
    }

    @Override
    public void close() {
        clReleaseMemObject(buffer);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
}
