package io.ironloop.device;

import io.ironloop.core.LineInfo;
import java.util.Locale;

/**
 * What {@link DeviceSession#restore()} found: the line restored, the application's adaptability and how its
 * devices map now.
 *
 * @param line the restored line
 * @param adaptability malleable or pseudo-malleable, from what the application registered
 * @param savedDevices physical devices of the run that wrote the line
 * @param savedKind the device kind of the run that wrote the line
 * @param devices physical devices now
 * @param kind the device kind now
 * @param virtualDevices devices the application must distribute its work over now
 */
public record RestartReport(LineInfo line, Adaptability adaptability, int savedDevices, DeviceKind savedKind, int devices,
        DeviceKind kind, int virtualDevices) {
    /** One line for logs, e.g. "restart at iteration 12 of a malleable application: data re-split over 1 java device (checkpointed on 2 opencl devices)". */
    public String describe() {
        String now = devices + " " + name(kind) + " device" + (devices == 1 ? "" : "s");
        String then = savedDevices + " " + name(savedKind) + " device" + (savedDevices == 1 ? "" : "s");
        String how = adaptability == Adaptability.MALLEABLE
                ? "malleable application (only unified arrays registered): data re-split over " + now
                : "pseudo-malleable application (it registered a distribution over " + virtualDevices + " devices): "
                        + virtualDevices + " virtual device" + (virtualDevices == 1 ? "" : "s") + " mapped onto " + now;
        return "restart at iteration " + line.iteration() + " of a " + how + " (checkpointed on " + then + ")";
    }

    private static String name(DeviceKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
