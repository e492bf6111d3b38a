/**
 * Heterogeneous devices and their checkpoints, after CPPC + HPL.
 *
 * <p>A {@link io.ironloop.device.DeviceArray} is a host image plus one buffer per device that used it, and knows
 * which copies are current. {@link io.ironloop.device.Device#launch} runs a {@link io.ironloop.device.Kernel}
 * whose every array argument carries an {@link io.ironloop.device.Intent}: stale inputs are transferred first,
 * outputs invalidate the other copies. Host access ({@link io.ironloop.device.DeviceArray#host}) goes through
 * the same tracking. {@link io.ironloop.device.DeviceSet#open DeviceSet.open} opens pure-Java CPU devices or OpenCL devices (PoCL's
 * CPU device split with {@code clCreateSubDevices} where no GPU exists).
 *
 * <p>{@link io.ironloop.device.DeviceSession} connects arrays to the checkpoint engine: its checkpoint brings
 * home exactly the arrays whose newest copy is on a device, then snapshots through the engine; device buffers
 * and kernels are never saved, and a restart rebuilds them by running the setup code again, on any device kind
 * and number of devices.
 */
package io.ironloop.device;
