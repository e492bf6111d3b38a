package io.ironloop.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LongCell;
import io.ironloop.core.RestoredState;
import io.ironloop.core.Store;
import io.ironloop.format.ElementType;
import io.ironloop.format.Scope;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The paper's Figs. 2 and 4: kernel_1 reads a1, a2 and b and writes tmp; kernel_2 writes a2 and updates a3. At a
 * checkpoint between iterations the protocol brings home exactly a2 and a3; tmp is not live and not registered.
 */
class ConsistencyProtocolTest {
    private static final int N = 4096;
    private static final int M = 64;

    private static final Kernel KERNEL_1 = Kernel.of("kernel_1", """
            #pragma OPENCL FP_CONTRACT OFF
            __kernel void kernel_1(__global const int* a1, __global const int* a2, __global float* tmp, __global const float* b, const int i) {
                int j = get_global_id(0);
                tmp[j] = (float) a1[j] + (float) a2[j] * b[j % 64] + (float) i;
            }
            """, (args, from, to) -> {
                int[] a1 = args.ints(0);
                int[] a2 = args.ints(1);
                float[] tmp = args.floats(2);
                float[] b = args.floats(3);
                int i = args.intValue(4);
                for (int j = from; j < to; j++) {
                    tmp[j] = (float) a1[j] + (float) a2[j] * b[j % 64] + (float) i;
                }
            });

    private static final Kernel KERNEL_2 = Kernel.of("kernel_2", """
            #pragma OPENCL FP_CONTRACT OFF
            __kernel void kernel_2(__global int* a2, __global const float* tmp, __global float* a3) {
                int j = get_global_id(0);
                a2[j] = ((int) tmp[j]) % 1000;
                a3[j] = a3[j] * 0.5f + tmp[j];
            }
            """, (args, from, to) -> {
                int[] a2 = args.ints(0);
                float[] tmp = args.floats(1);
                float[] a3 = args.floats(2);
                for (int j = from; j < to; j++) {
                    a2[j] = ((int) tmp[j]) % 1000;
                    a3[j] = a3[j] * 0.5f + tmp[j];
                }
            });

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(DeviceKind.class)
    void checkpoint_betweenKernels_bringsHomeExactlyTheArraysADeviceModified(DeviceKind kind) {
        Kinds.assumeAvailable(kind);
        try (DeviceSet devices = DeviceSet.open(kind, 1);
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(dir))) {
            Device device = devices.get(0);
            DeviceSession session = DeviceSession.open(engine, devices);
            DeviceArray<int[]> a1 = DeviceArray.of("a1", DeviceArrayTest.sequence(N));
            DeviceArray<int[]> a2 = DeviceArray.of("a2", new int[N]);
            DeviceArray<float[]> a3 = DeviceArray.of("a3", new float[N]);
            DeviceArray<float[]> tmp = DeviceArray.of("tmp", new float[N]);
            float[] bImage = new float[M];
            for (int j = 0; j < M; j++) {
                bImage[j] = j / 8f;
            }
            DeviceArray<float[]> b = DeviceArray.of("b", bImage);
            LongCell i = new LongCell(0);
            engine.protect("i", Scope.GLOBAL, i);
            session.protect("a1", Scope.LOCAL, a1);
            session.protect("a2", Scope.LOCAL, a2);
            session.protect("a3", Scope.LOCAL, a3);
            session.protect("b", Scope.LOCAL, b);
            CheckpointReport report = null;
            for (; i.get() < 3; i.set(i.get() + 1)) {
                report = session.checkpoint(i.get());
                device.launch(KERNEL_1, N, Arg.read(a1), Arg.read(a2), Arg.write(tmp), Arg.read(b), Arg.of((int) i.get()));
                device.launch(KERNEL_2, N, Arg.write(a2), Arg.read(tmp), Arg.readWrite(a3));
            }
            assertThat(report.broughtHome()).as("checkpoint of iteration 2").containsExactly("a2", "a3");
            CheckpointReport now = session.checkpoint(i.get());
            assertThat(now.broughtHome()).containsExactly("a2", "a3");
            assertThat(now.bytesHome()).isEqualTo(4L * N + 4L * N);
            assertThat(now.naiveBytes()).isEqualTo(3 * 4L * N + 4L * M);
            assertThat(session.checkpoint(i.get() + 1).broughtHome()).as("nothing changed since").isEmpty();
            assertThat(tmp.isCurrentOnHost()).as("tmp is not registered: never brought home").isFalse();
            engine.awaitDurable();

            RestoredState saved = engine.read().orElseThrow();
            assertThat(saved.names()).as("host images and the session's two cells; no device buffer, program or handle")
                    .containsExactlyInAnyOrder("i", "a1", "a2", "a3", "b", DeviceSession.DEVICE_COUNT_ENTRY, DeviceSession.DEVICE_KIND_ENTRY);
            assertThat(saved.type("a3")).isEqualTo(ElementType.FLOAT);
            assertThat(saved.type("a2")).isEqualTo(ElementType.INT);
            assertThat(saved.names()).allSatisfy(name -> assertThat(saved.type(name)).isNotEqualTo(ElementType.OPAQUE));
            assertThat(saved.floats("a3")).isEqualTo(a3.host(Intent.READ));
        }
    }
}
