package io.ironloop.device;

/**
 * How devices are opened. Immutable; start from {@link #defaults()}.
 *
 * @param checked checked mode, for tests: every launch verifies that the kernel kept its declared intents (no
 *     write to a {@link Intent#READ} array, every element of a {@link Intent#WRITE} array written, some change to
 *     a {@link Intent#READ_WRITE} array) and throws {@link KernelContractException} otherwise. It waits for each
 *     kernel and copies every array argument twice, so it is far slower.
 * @param javaThreads threads per Java device; 0 means the machine's processors divided among the devices
 */
public record DeviceOptions(boolean checked, int javaThreads) {
    public DeviceOptions {
        if (javaThreads < 0) {
            throw new IllegalArgumentException("javaThreads must be 0 (automatic) or positive, got " + javaThreads);
        }
    }

    /** Unchecked, automatic threads. */
    public static DeviceOptions defaults() {
        return new DeviceOptions(false, 0);
    }

    /** These options with checked mode on or off. */
    public DeviceOptions withChecked(boolean on) {
        return new DeviceOptions(on, javaThreads);
    }

    /** These options with {@code threads} threads per Java device (0: automatic). */
    public DeviceOptions withJavaThreads(int threads) {
        return new DeviceOptions(checked, threads);
    }
}
