package io.ironloop.device;

import java.time.Duration;
import java.util.List;

/**
 * The cost of one {@link DeviceSession#checkpoint}, split as the paper's Table 5 splits it: the consistency
 * protocol (waiting for kernels and bringing home the arrays whose newest copy was on a device) and the engine's
 * snapshot (the copy on the caller's thread; the file is then written in the background, see
 * {@link io.ironloop.core.CheckpointEngine#lastCost()}).
 *
 * @param iteration the checkpoint's iteration
 * @param broughtHome the arrays (or parts, e.g. {@code c[1]}) the protocol copied home, in registration order
 * @param bytesHome bytes the protocol copied home
 * @param naiveBytes bytes that copying every registered array home would have moved
 * @param protocol time of the consistency protocol
 * @param snapshot time of the engine's snapshot
 */
public record CheckpointReport(long iteration, List<String> broughtHome, long bytesHome, long naiveBytes, Duration protocol,
        Duration snapshot) {
    public CheckpointReport {
        broughtHome = List.copyOf(broughtHome);
    }
}
