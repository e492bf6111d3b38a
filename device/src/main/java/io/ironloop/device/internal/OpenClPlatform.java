package io.ironloop.device.internal;

import static org.jocl.CL.CL_DEVICE_MAX_COMPUTE_UNITS;
import static org.jocl.CL.CL_DEVICE_NAME;
import static org.jocl.CL.CL_DEVICE_PARTITION_EQUALLY;
import static org.jocl.CL.CL_DEVICE_TYPE_ALL;
import static org.jocl.CL.clCreateSubDevices;
import static org.jocl.CL.clGetDeviceIDs;
import static org.jocl.CL.clGetDeviceInfo;
import static org.jocl.CL.clGetPlatformIDs;

import io.ironloop.device.OpenClUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_device_id;
import org.jocl.cl_device_partition_property;
import org.jocl.cl_platform_id;

/**
 * Finds OpenCL devices: the platforms' own devices, or, when there are fewer than asked for, equal sub-devices
 * of one device made with {@code clCreateSubDevices} (how PoCL's single CPU device becomes several).
 */
public final class OpenClPlatform {
    private OpenClPlatform() {
    }

    /** Why OpenCL cannot be used here, or empty when at least one device answers. */
    public static Optional<String> unavailableReason() {
        try {
            return allDevices().isEmpty() ? Optional.of("no OpenCL device found (install pocl-opencl-icd for a CPU device)")
                    : Optional.empty();
        } catch (OpenClUnavailableException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Opens {@code count} OpenCL back ends: the first {@code count} devices if there are as many, else equal
     * sub-devices of the first device that can be split that way.
     *
     * @throws OpenClUnavailableException if there is no OpenCL, or not enough devices or compute units
     */
    public static List<Backend> open(int count) {
        List<cl_device_id> devices = allDevices();
        if (devices.isEmpty()) {
            throw new OpenClUnavailableException("no OpenCL device found; install an OpenCL driver (on Debian: apt-get install"
                    + " pocl-opencl-icd) or use the Java device");
        }
        List<Backend> opened = new ArrayList<>();
        if (devices.size() >= count) {
            for (int i = 0; i < count; i++) {
                opened.add(new OpenClBackend("opencl:" + i + " (" + name(devices.get(i)) + ")", devices.get(i)));
            }
            return opened;
        }
        cl_device_id parent = devices.get(0);
        int units = computeUnits(parent);
        if (units < count) {
            throw new OpenClUnavailableException("cannot make " + count + " OpenCL devices: there are " + devices.size()
                    + " and the first (" + name(parent) + ") has only " + units + " compute units to split; ask for at most "
                    + Math.max(devices.size(), units));
        }
        cl_device_partition_property props = new cl_device_partition_property();
        props.addProperty(CL_DEVICE_PARTITION_EQUALLY, units / count);
        int[] made = new int[1];
        try {
            clCreateSubDevices(parent, props, 0, null, made);
            cl_device_id[] subs = new cl_device_id[made[0]];
            clCreateSubDevices(parent, props, made[0], subs, null);
            for (int i = 0; i < count; i++) {
                opened.add(new OpenClBackend("opencl:" + i + " (" + name(parent) + ", sub-device " + i + " of " + count + ", "
                        + units / count + " compute units)", subs[i]));
            }
        } catch (CLException e) {
            opened.forEach(Backend::close);
            throw new OpenClUnavailableException("clCreateSubDevices could not split " + name(parent) + " into " + count
                    + " devices: " + e.getMessage(), e);
        }
        return opened;
    }

    private static List<cl_device_id> allDevices() {
        try {
            CL.setExceptionsEnabled(true);
            int[] n = new int[1];
            clGetPlatformIDs(0, null, n);
            cl_platform_id[] platforms = new cl_platform_id[n[0]];
            clGetPlatformIDs(n[0], platforms, null);
            List<cl_device_id> devices = new ArrayList<>();
            for (cl_platform_id p : platforms) {
                int[] m = new int[1];
                try {
                    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, null, m);
                } catch (CLException e) {
                    continue; // CL_DEVICE_NOT_FOUND
                }
                cl_device_id[] ds = new cl_device_id[m[0]];
                clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, m[0], ds, null);
                devices.addAll(List.of(ds));
            }
            return devices;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new OpenClUnavailableException("the OpenCL library (libOpenCL.so.1) cannot be loaded: " + e.getMessage()
                    + "; install an ICD loader and driver (on Debian: apt-get install pocl-opencl-icd)", e);
        } catch (CLException e) {
            throw new OpenClUnavailableException("no OpenCL platform: " + e.getMessage()
                    + " (on Debian: apt-get install pocl-opencl-icd)", e);
        }
    }

    static String name(cl_device_id device) {
        long[] size = new long[1];
        clGetDeviceInfo(device, CL_DEVICE_NAME, 0, null, size);
        byte[] bytes = new byte[(int) size[0]];
        clGetDeviceInfo(device, CL_DEVICE_NAME, bytes.length, Pointer.to(bytes), null);
        return new String(bytes, 0, Math.max(0, bytes.length - 1), StandardCharsets.UTF_8);
    }

    private static int computeUnits(cl_device_id device) {
        int[] units = new int[1];
        clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, Sizeof.cl_uint, Pointer.to(units), null);
        return units[0];
    }
}
