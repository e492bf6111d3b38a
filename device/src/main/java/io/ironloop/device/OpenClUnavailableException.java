package io.ironloop.device;

import io.ironloop.IronloopException;

/**
 * No usable OpenCL platform or not enough devices: the message says what is missing. On Debian or Ubuntu
 * {@code apt-get install pocl-opencl-icd} gives an OpenCL CPU device; the pure-Java device
 * ({@link DeviceKind#JAVA}) runs the same applications without OpenCL.
 */
public class OpenClUnavailableException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public OpenClUnavailableException(String message) {
        super(message);
    }

    public OpenClUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
