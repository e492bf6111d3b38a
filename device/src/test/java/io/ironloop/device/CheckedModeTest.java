package io.ironloop.device;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Checked mode catches kernels that break their declared intents. */
class CheckedModeTest {
    private static final int N = 256;
    private static final DeviceOptions CHECKED = DeviceOptions.defaults().withChecked(true);

    /** Writes only the first half of out, though it declares WRITE of all of it. */
    private static final Kernel HALF = Kernel.of("half_only", """
            __kernel void half_only(__global const int* in, __global int* out) {
                int i = get_global_id(0);
                if (i < 128) out[i] = in[i];
            }
            """, (args, from, to) -> {
                for (int i = from; i < Math.min(to, 128); i++) {
                    args.ints(1)[i] = args.ints(0)[i];
                }
            });

    /** Declared READ_WRITE of its second argument, but writes nothing. */
    private static final Kernel NOTHING = Kernel.of("nothing", """
            __kernel void nothing(__global const int* in, __global int* out) {
            }
            """, (args, from, to) -> { });

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void launch_correctIntents_passes(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1, CHECKED)) {
            assertThatCode(() -> devices.get(0).launch(Relax.DOUBLE_IT, N, Arg.read(ints("in")), Arg.write(ints("out"))))
                    .doesNotThrowAnyException();
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void launch_writeLeavesElementsUnwritten_isCaught(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1, CHECKED)) {
            assertThatThrownBy(() -> devices.get(0).launch(HALF, N, Arg.read(ints("in")), Arg.write(ints("out"))))
                    .isInstanceOf(KernelContractException.class).hasMessageContaining("declares WRITE of out but left element 128 unwritten");
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void launch_declaredWriteNotPerformed_isCaught(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1, CHECKED)) {
            assertThatThrownBy(() -> devices.get(0).launch(NOTHING, N, Arg.read(ints("in")), Arg.readWrite(ints("out"))))
                    .isInstanceOf(KernelContractException.class).hasMessageContaining("declares a write of out that it does not perform");
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void launch_writesAnArrayDeclaredRead_isCaught(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1, CHECKED)) {
            assertThatThrownBy(() -> devices.get(0).launch(Relax.DOUBLE_IT, N, Arg.read(ints("in")), Arg.read(ints("out"))))
                    .isInstanceOf(KernelContractException.class).hasMessageContaining("changed out, which it declares READ");
        }
    }

    @Test
    void launch_kernelReadsAnUndeclaredArray_isCaught() {
        DeviceArray<int[]> hidden = ints("hidden");
        Kernel sneaky = Kernel.java("sneaky", (args, from, to) -> {
            int[] h = hidden.host(Intent.READ);
            for (int i = from; i < to; i++) {
                args.ints(0)[i] = h[i];
            }
        });
        try (DeviceSet devices = DeviceSet.open(DeviceKind.JAVA, 1, CHECKED)) {
            assertThatThrownBy(() -> devices.get(0).launch(sneaky, N, Arg.write(ints("out"))))
                    .isInstanceOf(KernelContractException.class).hasMessageContaining("kernel sneaky reached array hidden through the host");
        }
    }

    private static DeviceArray<int[]> ints(String name) {
        return DeviceArray.of(name, DeviceArrayTest.sequence(N));
    }
}
