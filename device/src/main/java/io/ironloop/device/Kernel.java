package io.ironloop.device;

import java.util.Objects;
import java.util.Optional;

/**
 * A kernel: a name, its OpenCL C source (a {@code __kernel} function of that name) and/or its Java body. A kernel
 * with both runs on either device kind; which one a launch uses is the device's choice. For results that are
 * bit-identical across the two, write the OpenCL source with {@code #pragma OPENCL FP_CONTRACT OFF} (Java never
 * fuses a multiply and an add) and the same order of operations per work item.
 *
 * <p>Immutable. Compiled programs are cached per device; they are device state, never saved in a checkpoint.
 */
public final class Kernel {
    private final String name;
    private final String openClSource;
    private final JavaKernel javaBody;

    private Kernel(String name, String openClSource, JavaKernel javaBody) {
        this.name = name;
        this.openClSource = openClSource;
        this.javaBody = javaBody;
    }

    /**
     * A kernel with both implementations.
     *
     * @param name the OpenCL kernel function's name
     * @param openClSource OpenCL C source defining {@code name}, or null for a Java-only kernel
     * @param javaBody the Java body, or null for an OpenCL-only kernel
     * @throws IllegalArgumentException if both are null or the name is blank
     */
    public static Kernel of(String name, String openClSource, JavaKernel javaBody) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a kernel needs a name (its OpenCL function's name)");
        }
        if (openClSource == null && javaBody == null) {
            throw new IllegalArgumentException("kernel " + name + " has neither OpenCL source nor a Java body");
        }
        return new Kernel(name, openClSource, javaBody);
    }

    /** A kernel that runs only on the Java device. */
    public static Kernel java(String name, JavaKernel body) {
        return of(name, null, Objects.requireNonNull(body, "body"));
    }

    public String name() {
        return name;
    }

    public Optional<String> openClSource() {
        return Optional.ofNullable(openClSource);
    }

    public Optional<JavaKernel> javaBody() {
        return Optional.ofNullable(javaBody);
    }

    @Override
    public String toString() {
        return "kernel " + name;
    }
}
