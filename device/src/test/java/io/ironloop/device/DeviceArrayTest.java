package io.ironloop.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Validity tracking and lazy transfers, on both device kinds (OpenCL through PoCL where present). */
class DeviceArrayTest {
    private static final int N = 1024;

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void launch_inputAlreadyOnDevice_isNotTransferredAgain(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1)) {
            Device d = devices.get(0);
            DeviceArray<int[]> in = DeviceArray.of("in", sequence(N));
            DeviceArray<int[]> out = DeviceArray.of("out", new int[N]);
            d.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(out));
            d.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(out));
            assertThat(d.stats().bytesToDevice()).as("in uploaded once, out (WRITE) never").isEqualTo(4L * N);
            assertThat(d.stats().bytesToHost()).isZero();
            assertThat(out.isCurrentOnHost()).isFalse();
            assertThat(out.currentOn()).containsExactly(d);
            assertThat(in.currentOn()).containsExactly(d);
            assertThat(in.isCurrentOnHost()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void hostRead_newestCopyOnDevice_bringsItHomeOnce(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1)) {
            Device d = devices.get(0);
            DeviceArray<int[]> in = DeviceArray.of("in", sequence(N));
            DeviceArray<int[]> out = DeviceArray.of("out", new int[N]);
            d.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(out));
            int[] result = out.host(Intent.READ);
            assertThat(result[N - 1]).isEqualTo(2 * (N - 1));
            out.host(Intent.READ);
            assertThat(d.stats().bytesToHost()).as("brought home once").isEqualTo(4L * N);
            assertThat(out.isCurrentOnHost()).isTrue();
            assertThat(out.currentOn()).as("a read keeps the device copy current").containsExactly(d);
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void hostWrite_invalidatesDevices_soTheNextKernelSeesTheHostVersion(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1)) {
            Device d = devices.get(0);
            DeviceArray<int[]> in = DeviceArray.of("in", sequence(N));
            DeviceArray<int[]> out = DeviceArray.of("out", new int[N]);
            d.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(out));
            in.host(Intent.READ_WRITE)[5] = 1000;
            assertThat(in.currentOn()).isEmpty();
            d.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(out));
            assertThat(out.host(Intent.READ)[5]).isEqualTo(2000);
            assertThat(d.stats().bytesToDevice()).as("in uploaded twice").isEqualTo(2 * 4L * N);
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void launch_newestCopyOnAnotherDevice_travelsThroughTheHost(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 2)) {
            Device d0 = devices.get(0);
            Device d1 = devices.get(1);
            DeviceArray<int[]> in = DeviceArray.of("in", sequence(N));
            DeviceArray<int[]> mid = DeviceArray.of("mid", new int[N]);
            DeviceArray<int[]> out = DeviceArray.of("out", new int[N]);
            d0.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(mid));
            d1.launch(Relax.DOUBLE_IT, N, Arg.read(mid), Arg.write(out));
            assertThat(out.host(Intent.READ)[7]).isEqualTo(28);
            assertThat(d0.stats().bytesToHost()).as("mid from d0").isEqualTo(4L * N);
            assertThat(d1.stats().bytesToDevice()).as("mid to d1").isEqualTo(4L * N);
            assertThat(mid.currentOn()).containsExactlyInAnyOrder(d0, d1);
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void split_partsOnTheirOwnDevices_moveOnlyTheirOwnBytes(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 2)) {
            DeviceArray<double[]> x = DeviceArray.of("x", Relax.initialX(N));
            DeviceArray<double[]> b = DeviceArray.of("b", Relax.initialB(N));
            var parts = x.split(2);
            for (int p = 0; p < 2; p++) {
                devices.get(p).launch(Relax.RELAX, parts.get(p).length(), Arg.readWrite(parts.get(p)), Arg.read(b), Arg.of(N),
                        Arg.of(parts.get(p).offset()), Arg.of(0));
            }
            assertThat(x.isCurrentOnHost()).isFalse();
            double[] host = x.host(Intent.READ);
            double[] expected = Relax.initialX(N);
            double[] bs = Relax.initialB(N);
            for (int i = 0; i < N; i++) {
                expected[i] = 0.75 * expected[i] + 0.25 * bs[(i * 7) % N];
            }
            assertThat(host).isEqualTo(expected);
            for (Device d : devices) {
                assertThat(d.stats().bytesToDevice()).as("half of x and all of b").isEqualTo(8L * N / 2 + 8L * N);
                assertThat(d.stats().bytesToHost()).isEqualTo(8L * N / 2);
            }
            assertThatThrownBy(() -> devices.get(0).launch(Relax.RELAX, N, Arg.readWrite(x), Arg.read(b), Arg.of(N), Arg.of(0), Arg.of(0)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("split into 2 parts");
        }
    }

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void lostDevice_failsItsNextLaunch_andEveryLaterOperation(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1)) {
            Device d = devices.get(0);
            DeviceArray<int[]> in = DeviceArray.of("in", sequence(N));
            DeviceArray<int[]> out = DeviceArray.of("out", new int[N]);
            d.loseAfter(1);
            d.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(out));
            assertThatThrownBy(() -> d.launch(Relax.DOUBLE_IT, N, Arg.read(in), Arg.write(out)))
                    .isInstanceOf(DeviceLostException.class).hasMessageContaining("is lost");
            assertThat(d.isLost()).isTrue();
            assertThatThrownBy(() -> out.host(Intent.READ)).as("out was current only on the lost device")
                    .isInstanceOf(DeviceLostException.class);
        }
    }

    static int[] sequence(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }
}
