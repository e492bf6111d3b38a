package io.ironloop.device;

import io.ironloop.IronloopException;

/**
 * A device failed: its queue refused an operation, so copies that were current only on it are lost. The
 * application cannot continue in this process; restart it from its last checkpoint, on the devices that remain
 * ({@link DeviceSession#restore()} re-splits a malleable application, maps a pseudo-malleable one).
 */
public class DeviceLostException extends IronloopException {
    private static final long serialVersionUID = 1L;

    public DeviceLostException(String message) {
        super(message);
    }

    public DeviceLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
