package io.ironloop.device.internal;

import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateCommandQueue;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseContext;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clReleaseProgram;
import static org.jocl.CL.clSetKernelArg;

import io.ironloop.device.DeviceKind;
import io.ironloop.device.DeviceLostException;
import io.ironloop.device.Kernel;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Map;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * One OpenCL device (or sub-device): its own context, one in-order command queue, buffers of
 * {@code CL_MEM_READ_WRITE}, and each kernel's program built on first use and kept until close. All of this is
 * device state: rebuilt by running the setup code again after a restart, never saved.
 */
final class OpenClBackend implements Backend {
    private final String name;
    private final cl_device_id device;
    private final cl_context context;
    private final cl_command_queue queue;
    private final Map<Kernel, Built> built = new IdentityHashMap<>();

    private record Built(cl_program program, cl_kernel kernel) {
    }

    OpenClBackend(String name, cl_device_id device) {
        this.name = name;
        this.device = device;
        this.context = clCreateContext(null, 1, new cl_device_id[] {device}, null, null, null);
        this.queue = clCreateCommandQueue(context, device, 0, null);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public DeviceKind kind() {
        return DeviceKind.OPENCL;
    }

    @Override
    public Object allocate(Elements<?> elements, int length) {
        try {
            return clCreateBuffer(context, CL_MEM_READ_WRITE, Math.max(1L, (long) length * elements.bytes()), null, null);
        } catch (CLException e) {
            throw failed("clCreateBuffer of " + length + " " + elements.typeName() + "s", e);
        }
    }

    @Override
    public <A> void upload(Object buffer, Elements<A> elements, A host, int offset, int length) {
        if (length == 0) {
            return;
        }
        try {
            clEnqueueWriteBuffer(queue, (cl_mem) buffer, true, 0, (long) length * elements.bytes(), elements.pointer(host, offset), 0, null, null);
        } catch (CLException e) {
            throw failed("clEnqueueWriteBuffer", e);
        }
    }

    @Override
    public <A> void download(Object buffer, Elements<A> elements, A host, int offset, int length) {
        if (length == 0) {
            return;
        }
        try {
            clEnqueueReadBuffer(queue, (cl_mem) buffer, true, 0, (long) length * elements.bytes(), elements.pointer(host, offset), 0, null, null);
        } catch (CLException e) {
            throw failed("clEnqueueReadBuffer", e);
        }
    }

    @Override
    public void run(Kernel kernel, int globalSize, Object[] args) {
        cl_kernel k = built.computeIfAbsent(kernel, this::build).kernel();
        try {
            for (int i = 0; i < args.length; i++) {
                Object a = args[i];
                if (a instanceof cl_mem mem) {
                    clSetKernelArg(k, i, Sizeof.cl_mem, Pointer.to(mem));
                } else if (a instanceof Integer v) {
                    clSetKernelArg(k, i, Sizeof.cl_int, Pointer.to(new int[] {v}));
                } else if (a instanceof Long v) {
                    clSetKernelArg(k, i, Sizeof.cl_long, Pointer.to(new long[] {v}));
                } else if (a instanceof Float v) {
                    clSetKernelArg(k, i, Sizeof.cl_float, Pointer.to(new float[] {v}));
                } else if (a instanceof Double v) {
                    clSetKernelArg(k, i, Sizeof.cl_double, Pointer.to(new double[] {v}));
                } else {
                    throw new IllegalArgumentException("argument " + i + " of " + kernel + " has an unsupported type: " + a);
                }
            }
            if (globalSize > 0) {
                clEnqueueNDRangeKernel(queue, k, 1, null, new long[] {globalSize}, null, 0, null, null);
            }
        } catch (CLException e) {
            throw failed("launching " + kernel, e);
        }
    }

    private Built build(Kernel kernel) {
        String source = kernel.openClSource().orElseThrow(() -> new IllegalArgumentException(kernel
                + " has no OpenCL source: it cannot run on the OpenCL device " + name + "; give Kernel.of OpenCL C source or use the Java device"));
        cl_program program = clCreateProgramWithSource(context, 1, new String[] {source}, null, null);
        try {
            clBuildProgram(program, 1, new cl_device_id[] {device}, null, null, null);
        } catch (CLException e) {
            // JOCL's message carries the build log already; older bindings' may not
            String log = e.getMessage() != null && e.getMessage().contains("Build log") ? "" : "\n" + buildLog(program);
            clReleaseProgram(program);
            throw new IllegalArgumentException("the OpenCL source of " + kernel + " does not build on " + name + ": " + e.getMessage()
                    + log, e);
        }
        try {
            return new Built(program, clCreateKernel(program, kernel.name(), null));
        } catch (CLException e) {
            clReleaseProgram(program);
            throw new IllegalArgumentException("the OpenCL source of " + kernel + " defines no __kernel named " + kernel.name(), e);
        }
    }

    private String buildLog(cl_program program) {
        long[] size = new long[1];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, bytes.length, Pointer.to(bytes), null);
        return new String(bytes, StandardCharsets.UTF_8).trim();
    }

    @Override
    public void finish() {
        try {
            clFinish(queue);
        } catch (CLException e) {
            throw failed("clFinish", e);
        }
    }

    @Override
    public void release(Object buffer) {
        clReleaseMemObject((cl_mem) buffer);
    }

    @Override
    public void close() {
        for (Built b : built.values()) {
            clReleaseKernel(b.kernel());
            clReleaseProgram(b.program());
        }
        built.clear();
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }

    private DeviceLostException failed(String what, CLException e) {
        return new DeviceLostException("OpenCL device " + name + " failed in " + what + ": " + e.getMessage(), e);
    }
}
