package io.ironloop.device;

/** The kinds of device Ironloop drives. */
public enum DeviceKind {
    /** A pure-Java CPU device: kernels are Java code run over a thread pool; always available. */
    JAVA,
    /** An OpenCL device through JOCL (a GPU, or PoCL's CPU device and its sub-devices). */
    OPENCL
}
