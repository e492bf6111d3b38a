package io.ironloop.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LongCell;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Restarts from checkpoint files on another device kind and number of devices, each run stopping right after a
 * durable checkpoint and the next one re-executing the setup code (devices, arrays, kernels) before restoring.
 * The kernels are deterministic per element, so every sequence ends bit-identical to a run without stops.
 */
class RestartTest {
    private static final int N = 6000;
    private static final int STEPS = 12;

    @TempDir
    Path dir;

    record Attempt(DeviceKind kind, int devices, int stopAt) {
        @Override
        public String toString() {
            return devices + " " + kind.name().toLowerCase() + (stopAt < 0 ? "" : " (stop at " + stopAt + ")");
        }
    }

    static Stream<Arguments> sequences() {
        return Stream.of(
                Arguments.of(List.of(new Attempt(DeviceKind.JAVA, 2, 4), new Attempt(DeviceKind.JAVA, 1, 8), new Attempt(DeviceKind.JAVA, 2, -1))),
                Arguments.of(List.of(new Attempt(DeviceKind.JAVA, 1, 5), new Attempt(DeviceKind.OPENCL, 2, 9), new Attempt(DeviceKind.JAVA, 2, -1))),
                Arguments.of(List.of(new Attempt(DeviceKind.OPENCL, 2, 3), new Attempt(DeviceKind.OPENCL, 1, 7), new Attempt(DeviceKind.OPENCL, 2, -1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    void malleable_restartsOnOtherKindsAndCounts_endBitIdentical(List<Attempt> attempts) throws Exception {
        attempts.forEach(a -> Kinds.assumeAvailable(a.kind()));
        String reference = malleable(dir.resolve("reference"), new Attempt(DeviceKind.JAVA, 1, -1), new ArrayList<>());
        List<RestartReport> reports = new ArrayList<>();
        String result = null;
        for (Attempt a : attempts) {
            result = malleable(dir.resolve("run"), a, reports);
        }
        assertThat(result).isEqualTo(reference);
        assertThat(reports).hasSize(attempts.size() - 1);
        for (int k = 0; k < reports.size(); k++) {
            RestartReport r = reports.get(k);
            assertThat(r.adaptability()).isEqualTo(Adaptability.MALLEABLE);
            assertThat(r.line().iteration()).isEqualTo(attempts.get(k).stopAt());
            assertThat(r.savedDevices()).isEqualTo(attempts.get(k).devices());
            assertThat(r.savedKind()).isEqualTo(attempts.get(k).kind());
            assertThat(r.virtualDevices()).isEqualTo(attempts.get(k + 1).devices());
            assertThat(r.describe()).contains("malleable application", "re-split over " + attempts.get(k + 1).devices());
        }
    }

    @Test
    void pseudoMalleable_restartOnFewerAndMoreDevices_keepsItsVirtualDevices() throws Exception {
        String reference = pseudoMalleable(dir.resolve("reference"), new Attempt(DeviceKind.JAVA, 2, -1), new ArrayList<>());
        List<RestartReport> reports = new ArrayList<>();
        pseudoMalleable(dir.resolve("run"), new Attempt(DeviceKind.JAVA, 2, 4), reports);
        pseudoMalleable(dir.resolve("run"), new Attempt(DeviceKind.JAVA, 1, 7), reports);
        String result = pseudoMalleable(dir.resolve("run"), new Attempt(DeviceKind.JAVA, 3, -1), reports);
        assertThat(result).isEqualTo(reference);
        assertThat(reports).extracting(RestartReport::adaptability).containsOnly(Adaptability.PSEUDO_MALLEABLE);
        assertThat(reports).extracting(RestartReport::virtualDevices).containsExactly(2, 2);
        assertThat(reports.get(0).describe()).contains("pseudo-malleable", "2 virtual devices mapped onto 1 java device");
    }

    @Test
    void lostDevice_restartOnTheRemainingDevice_endsBitIdentical() throws Exception {
        String reference = malleable(dir.resolve("reference"), new Attempt(DeviceKind.JAVA, 1, -1), new ArrayList<>());
        Path run = dir.resolve("run");
        assertThatThrownBy(() -> malleable(run, new Attempt(DeviceKind.JAVA, 2, -1), new ArrayList<>(), 6))
                .isInstanceOf(DeviceLostException.class);
        List<RestartReport> reports = new ArrayList<>();
        assertThat(malleable(run, new Attempt(DeviceKind.JAVA, 1, -1), reports)).isEqualTo(reference);
        assertThat(reports.get(0).line().iteration()).as("device 1 fails at its 7th launch, in step 7: the last checkpoint is step 6").isEqualTo(6);
    }

    private static String malleable(Path folder, Attempt attempt, List<RestartReport> reports) throws Exception {
        return malleable(folder, attempt, reports, -1);
    }

    /** The malleable application: x (split over the devices) relaxed from b (whole) every step, checkpointed every step. */
    private static String malleable(Path folder, Attempt attempt, List<RestartReport> reports, long loseDevice1After) throws Exception {
        try (DeviceSet devices = DeviceSet.open(attempt.kind(), attempt.devices());
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(folder))) {
            if (loseDevice1After >= 0) {
                devices.get(1).loseAfter(loseDevice1After);
            }
            DeviceSession session = DeviceSession.open(engine, devices);
            LongCell step = new LongCell(0);
            DeviceArray<double[]> x = DeviceArray.of("x", Relax.initialX(N));
            DeviceArray<double[]> b = DeviceArray.of("b", Relax.initialB(N));
            engine.protect("settings", Scope.SETTINGS, new int[] {N, STEPS});
            engine.protect("step", Scope.GLOBAL, step);
            session.protect("x", Scope.LOCAL, x);
            session.protect("b", Scope.LOCAL, b);
            session.restore().ifPresent(reports::add);
            List<DeviceArray<double[]>> parts = x.split(session.virtualDevices());
            while (step.get() < STEPS) {
                for (int p = 0; p < parts.size(); p++) {
                    DeviceArray<double[]> part = parts.get(p);
                    session.device(p).launch(Relax.RELAX, part.length(), Arg.readWrite(part), Arg.read(b), Arg.of(N),
                            Arg.of(part.offset()), Arg.of((int) step.get()));
                }
                step.set(step.get() + 1);
                session.checkpoint(step.get());
                if (step.get() == attempt.stopAt()) {
                    engine.awaitDurable();
                    return null;
                }
            }
            engine.awaitDurable();
            return digest(x.host(Intent.READ));
        }
    }

    /**
     * The pseudo-malleable application: per virtual device v, sums[v] accumulates every step the sum of its slice of
     * values, which it then doubles; sums has one element per virtual device, so their number must survive restarts.
     */
    private static String pseudoMalleable(Path folder, Attempt attempt, List<RestartReport> reports) throws Exception {
        try (DeviceSet devices = DeviceSet.open(attempt.kind(), attempt.devices());
                CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(folder))) {
            DeviceSession session = DeviceSession.open(engine, devices);
            int virtual = session.preserveDistribution(devices.size());
            LongCell step = new LongCell(0);
            DeviceArray<int[]> values = DeviceArray.of("values", DeviceArrayTest.sequence(N));
            DeviceArray<long[]> sums = DeviceArray.of("sums", new long[virtual]);
            engine.protect("step", Scope.GLOBAL, step);
            session.protect("values", Scope.LOCAL, values);
            session.protect("sums", Scope.LOCAL, sums);
            Optional<RestartReport> restart = session.restore();
            restart.ifPresent(reports::add);
            while (step.get() < STEPS) {
                for (int v = 0; v < virtual; v++) {
                    session.device(v).launch(Relax.SUM, 1, Arg.read(values), Arg.readWrite(sums), Arg.of(v), Arg.of(N * v / virtual),
                            Arg.of(N * (v + 1) / virtual));
                }
                int[] host = values.host(Intent.READ_WRITE);
                for (int i = 0; i < N; i++) {
                    host[i] = host[i] * 3 % 1_000_003;
                }
                step.set(step.get() + 1);
                session.checkpoint(step.get());
                if (step.get() == attempt.stopAt()) {
                    engine.awaitDurable();
                    return null;
                }
            }
            engine.awaitDurable();
            long[] result = sums.host(Intent.READ);
            ByteBuffer bytes = ByteBuffer.allocate(result.length * 8).order(ByteOrder.LITTLE_ENDIAN);
            bytes.asLongBuffer().put(result);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.array()));
        }
    }

    private static String digest(double[] values) throws Exception {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asDoubleBuffer().put(values);
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.array()));
    }
}
