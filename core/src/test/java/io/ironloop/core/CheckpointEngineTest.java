package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.format.Codec;
import io.ironloop.format.Scope;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CheckpointEngineTest {
    @TempDir
    Path dir;

    static Stream<Arguments> stores() {
        return Stream.of(Arguments.of("directory"), Arguments.of("memory"));
    }

    private Store store(String kind) {
        return kind.equals("memory") ? Store.inMemory() : Store.directory(dir.resolve("store"));
    }

    private static EngineConfig.Builder config() {
        return EngineConfig.builder().chunkSize(4096);
    }

    static Stream<Arguments> storesAndModes() {
        return Stream.of("directory", "memory").flatMap(k -> Stream.of(Arguments.of(k, false), Arguments.of(k, true)));
    }

    @ParameterizedTest(name = "{0} store, in place {1}")
    @MethodSource("storesAndModes")
    void restore_everyEntryTypeAndScope_roundTripsBitForBit(String kind, boolean inPlace) {
        Random rnd = new Random(42);
        double[] d = rnd.doubles(3000).toArray();
        float[] f = new float[777];
        long[] l = rnd.longs(100).toArray();
        int[] i = rnd.ints(5000).toArray();
        short[] s = new short[33];
        char[] c = "protected state".toCharArray();
        byte[] b = new byte[9000];
        boolean[] z = new boolean[17];
        for (int k = 0; k < f.length; k++) {
            f[k] = rnd.nextFloat();
        }
        for (int k = 0; k < s.length; k++) {
            s[k] = (short) rnd.nextInt();
        }
        rnd.nextBytes(b);
        for (int k = 0; k < z.length; k++) {
            z[k] = rnd.nextBoolean();
        }
        LongCell iter = new LongCell(7);
        DoubleCell residual = new DoubleCell(Math.PI);
        ByteBuffer direct = ByteBuffer.allocateDirect(5000);
        for (int k = 0; k < 5000; k++) {
            direct.put(k, (byte) (k * 31));
        }
        Counter entity = new Counter(new double[] {1.5, -2.5}, 99);
        Store store = store(kind);
        Object[] originals = {d.clone(), f.clone(), l.clone(), i.clone(), s.clone(), c.clone(), b.clone(), z.clone()};
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("d", Scope.GLOBAL, d);
            e.protect("f", Scope.LOCAL, f);
            e.protect("l", Scope.LOCAL, l);
            e.protect("i", Scope.SETTINGS, i);
            e.protect("s", Scope.LOCAL, s);
            e.protect("c", Scope.GLOBAL, c);
            e.protect("b", Scope.LOCAL, b);
            e.protect("z", Scope.LOCAL, z);
            e.protect("iter", Scope.GLOBAL, iter);
            e.protect("residual", Scope.GLOBAL, residual);
            e.protect("direct", Scope.LOCAL, direct);
            e.protect("entity", Scope.LOCAL, entity);
            if (inPlace) {
                assertThat(e.checkpointInPlace(7).iteration()).isEqualTo(7);
            } else {
                e.checkpoint(7);
                e.awaitDurable();
            }
            // scribble over everything, then restore
            Arrays.fill(d, 0);
            Arrays.fill(f, 0);
            Arrays.fill(l, 0);
            Arrays.fill(s, (short) 0);
            Arrays.fill(c, 'x');
            Arrays.fill(b, (byte) 0);
            Arrays.fill(z, false);
            iter.set(0);
            residual.set(0);
            for (int k = 0; k < 5000; k++) {
                direct.put(k, (byte) 0);
            }
            entity.values = new double[0];
            entity.count = 0;
            LineInfo line = e.restore().orElseThrow();
            assertThat(line.iteration()).isEqualTo(7);
        }
        assertThat(new Object[] {d, f, l, i, s, c, b, z}).isEqualTo(originals);
        assertThat(iter.get()).isEqualTo(7);
        assertThat(residual.get()).isEqualTo(Math.PI);
        for (int k = 0; k < 5000; k++) {
            assertThat(direct.get(k)).isEqualTo((byte) (k * 31));
        }
        assertThat(entity.values).containsExactly(1.5, -2.5);
        assertThat(entity.count).isEqualTo(99);
    }

    @Test
    void checkpointInPlace_afterACheckpointInFlight_waitsForItAndCommitsBothInOrder() {
        double[] a = new Random(5).doubles(50_000).toArray();
        double[] first = a.clone();
        try (CheckpointEngine e = CheckpointEngine.open(config().retainLines(5).build(), Store.directory(dir.resolve("s")))) {
            e.protect("a", Scope.LOCAL, a);
            e.checkpoint(1);
            // checkpoint(1) staged its copy: changing the array now must not change line 1
            Arrays.setAll(a, k -> -a[k]);
            double[] second = a.clone();
            LineInfo line = e.checkpointInPlace(2);
            assertThat(e.lines()).extracting(LineInfo::iteration).containsExactly(1L, 2L);
            assertThat(line).isEqualTo(e.lines().get(1));
            Arrays.fill(a, 0);
            assertThat(e.restore().orElseThrow().iteration()).isEqualTo(2);
            assertThat(a).isEqualTo(second).isNotEqualTo(first);
        }
    }

    @Test
    void checkpointInPlace_blockingReported_coversTheWaitForTheWriteAndNoMoreThanTheCall() {
        double[] a = new Random(6).doubles(1 << 20).toArray();
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.Map<Long, java.time.Duration> blocking = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.Map<Long, java.time.Duration> written = new java.util.concurrent.ConcurrentHashMap<>();
        EngineListener listener = new EngineListener() {
            @Override
            public void checkpointSnapshotted(String series, long iteration, java.time.Duration blocked, long stagedBytes) {
                order.add("snapshotted " + iteration);
                blocking.put(iteration, blocked);
            }

            @Override
            public void checkpointDurable(LineInfo line, java.time.Duration sinceStart, long bytesWritten) {
                order.add("durable " + line.iteration());
                written.put(line.iteration(), sinceStart);
            }
        };
        try (CheckpointEngine e = CheckpointEngine.open(config().retainLines(5).build(), Store.directory(dir.resolve("s")), listener)) {
            e.protect("a", Scope.LOCAL, a);
            e.checkpoint(1); // in flight while the in-place checkpoint is called
            long called = System.nanoTime();
            e.checkpointInPlace(2);
            java.time.Duration call = java.time.Duration.ofNanos(System.nanoTime() - called);

            assertThat(order).containsExactly("snapshotted 1", "durable 1", "snapshotted 2", "durable 2");
            assertThat(blocking.get(2L)).as("the caller waited for the line to be written, not only for its entities' copies")
                    .isGreaterThanOrEqualTo(written.get(2L)).isLessThanOrEqualTo(call);
        }
    }

    @Test
    void restore_seededRandomShapesAndContents_roundTrip() {
        Random rnd = new Random(2024);
        for (int trial = 0; trial < 25; trial++) {
            int chunk = 4096 << rnd.nextInt(3);
            Codec codec = Codec.values()[rnd.nextInt(Codec.values().length)];
            boolean diff = rnd.nextBoolean();
            List<double[]> arrays = new ArrayList<>();
            Store store = Store.inMemory();
            try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().chunkSize(chunk).compression(codec, 1)
                    .differential(diff, 3).build(), store)) {
                int n = 1 + rnd.nextInt(4);
                for (int k = 0; k < n; k++) {
                    double[] a = new double[rnd.nextInt(20_000)];
                    fill(a, rnd);
                    arrays.add(a);
                    e.protect("a" + k, Scope.LOCAL, a);
                }
                List<double[]> expected = new ArrayList<>();
                for (int it = 0; it < 1 + rnd.nextInt(5); it++) {
                    for (double[] a : arrays) {
                        if (rnd.nextBoolean() && a.length > 0) {
                            a[rnd.nextInt(a.length)] = rnd.nextGaussian();
                        }
                    }
                    e.checkpoint(it);
                    expected = arrays.stream().map(double[]::clone).toList();
                }
                e.awaitDurable();
                for (double[] a : arrays) {
                    Arrays.fill(a, -1);
                }
                e.restore().orElseThrow();
                for (int k = 0; k < arrays.size(); k++) {
                    assertThat(arrays.get(k)).as("trial %d entry %d codec %s chunk %d diff %s", trial, k, codec, chunk, diff)
                            .isEqualTo(expected.get(k));
                }
            }
        }
    }

    @Test
    void differentialChain_restoresIdenticallyToFullLines() {
        Random rnd = new Random(7);
        double[] field = new double[64 * 1024];
        fill(field, rnd);
        Store diffStore = Store.inMemory();
        Store fullStore = Store.inMemory();
        try (CheckpointEngine diff = CheckpointEngine.open(config().differential(true, 4).retainLines(10).build(), diffStore);
             CheckpointEngine full = CheckpointEngine.open(config().retainLines(10).build(), fullStore)) {
            diff.protect("field", Scope.LOCAL, field);
            full.protect("field", Scope.LOCAL, field);
            for (int it = 1; it <= 6; it++) {
                field[rnd.nextInt(field.length)] += 1;
                diff.checkpoint(it);
                full.checkpoint(it);
            }
            diff.awaitDurable();
            full.awaitDurable();
            List<LineInfo> lines = diff.lines();
            assertThat(lines).extracting(LineInfo::full).containsExactly(true, false, false, false, true, false);
            assertThat(lines.get(1).dataBytes()).isLessThan(full.lines().get(1).dataBytes() / 10);
            assertThat(diff.read().orElseThrow().doubles("field")).isEqualTo(full.read().orElseThrow().doubles("field"));
        }
    }

    @Test
    void retention_keepsNewestKLinesAndWhatTheyReference() throws Exception {
        Store store = Store.directory(dir);
        long[] data = new long[10_000];
        try (CheckpointEngine e = CheckpointEngine.open(config().retainLines(2).differential(true, 3).build(), store)) {
            e.protect("data", Scope.LOCAL, data);
            for (int it = 0; it < 7; it++) {
                data[it] = it;
                e.checkpoint(it);
            }
            e.awaitDurable();
            assertThat(e.lines()).extracting(LineInfo::iteration).containsExactly(5L, 6L);
            LineInfo newest = e.lines().get(1);
            for (String ref : newest.references()) {
                assertThat(store.listFiles("rank-00000")).contains(ref);
            }
            assertThat(e.read().orElseThrow().longs("data")).isEqualTo(data);
        }
    }

    @Test
    void warmUpInBackground_calledTwice_runsOneDaemonThreadThatEnds() throws Exception {
        CheckpointEngine.warmUpInBackground();
        CheckpointEngine.warmUpInBackground();

        List<Thread> warmups = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("ironloop-warmup")).toList();
        assertThat(warmups).hasSizeLessThanOrEqualTo(1).allSatisfy(t -> assertThat(t.isDaemon()).isTrue());
        for (Thread t : warmups) {
            t.join(30_000);
            assertThat(t.isAlive()).as("the warm-up ends").isFalse();
        }
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("ironloop-warmup"));
    }

    @Test
    void read_lineLargerThanTheHeapLeft_isRefusedBeforeAllocating() throws Exception {
        // zero chunks take no room on disk: a line of a few kilobytes claims 192 MiB
        try (CheckpointEngine e = CheckpointEngine.open(EngineConfig.builder().build(), Store.directory(dir))) {
            for (int i = 0; i < 3; i++) {
                e.protect("zeros-" + i, Scope.LOCAL, new long[8 << 20]);
            }
            e.checkpoint(1);
            e.awaitDurable();
        }
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), ReadNewMain.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(child.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(out).startsWith("refused: line ").contains("201326592 bytes of entries").contains("raise -Xmx");
            assertThat(child.exitValue()).isZero();
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void restore_settingsChanged_throwsMismatchWithBothFingerprints() {
        Store store = Store.inMemory();
        int[] settings = {1, 2, 3};
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("settings", Scope.SETTINGS, settings);
            e.protect("x", Scope.LOCAL, new double[10]);
            e.checkpoint(1);
            e.awaitDurable();
        }
        settings[2] = 4;
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("settings", Scope.SETTINGS, settings);
            e.protect("x", Scope.LOCAL, new double[10]);
            String current = e.settingsFingerprint();
            assertThatThrownBy(e::restore).isInstanceOf(SettingsMismatchException.class)
                    .hasMessageContaining(current)
                    .satisfies(t -> assertThat(((SettingsMismatchException) t).savedFingerprint()).isNotEqualTo(current));
        }
        try (CheckpointEngine e = CheckpointEngine.open(config().ignoreSettings(true).build(), store)) {
            e.protect("settings", Scope.SETTINGS, settings);
            e.protect("x", Scope.LOCAL, new double[10]);
            assertThat(e.restore()).isPresent();
            assertThat(settings).containsExactly(1, 2, 3);
        }
    }

    @Test
    void retention_linesUnderOtherSettings_areNeverDeleted() {
        Store store = Store.inMemory();
        int[] settings = {1};
        try (CheckpointEngine e = CheckpointEngine.open(config().retainLines(1).build(), store)) {
            e.protect("settings", Scope.SETTINGS, settings);
            e.checkpoint(1);
            e.checkpoint(2);
            settings[0] = 2;
            e.checkpoint(3);
            e.checkpoint(4);
            e.awaitDurable();
            assertThat(e.lines()).extracting(LineInfo::iteration).containsExactly(2L, 4L);
        }
    }

    @Test
    void restore_shapeDiffers_explainsWhatToDo() {
        Store store = Store.inMemory();
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("x", Scope.LOCAL, new double[10]);
            e.checkpoint(1);
        }
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("x", Scope.LOCAL, new double[11]);
            assertThatThrownBy(e::restore).hasMessageContaining("'x'").hasMessageContaining("same shapes");
        }
    }

    @Test
    void unprotect_dropsEntryFromLaterLines() {
        Store store = Store.inMemory();
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("input", Scope.LOCAL, new double[100]);
            e.protect("output", Scope.LOCAL, new double[100]);
            e.checkpoint(1);
            assertThat(e.unprotect("input")).isTrue();
            e.checkpoint(2);
            e.awaitDurable();
            assertThat(e.read().orElseThrow().names()).containsExactly("output");
        }
    }

    @Test
    void open_seriesAlreadyLocked_isRefused() {
        Store store = Store.directory(dir);
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            assertThatThrownBy(() -> CheckpointEngine.open(config().build(), store)).isInstanceOf(StoreLockedException.class)
                    .hasMessageContaining("rank-00000");
        }
    }

    @Test
    void restore_emptyStore_returnsEmpty() {
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), Store.inMemory())) {
            e.protect("x", Scope.LOCAL, new double[3]);
            assertThat(e.restore()).isEmpty();
        }
    }

    @Test
    void listener_seesMatchedStartAndEndEvents() {
        List<String> events = new ArrayList<>();
        EngineListener l = new EngineListener() {
            @Override
            public void checkpointStarted(String series, long iteration) {
                events.add("started " + iteration);
            }

            @Override
            public void checkpointSnapshotted(String series, long iteration, java.time.Duration blocking, long stagedBytes) {
                events.add("snapshotted " + iteration + " " + stagedBytes);
            }

            @Override
            public void checkpointDurable(LineInfo line, java.time.Duration sinceStart, long bytesWritten) {
                synchronized (events) {
                    events.add("durable " + line.iteration());
                }
            }
        };
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), Store.inMemory(), l)) {
            e.protect("x", Scope.LOCAL, new double[16]);
            e.checkpoint(3);
            e.awaitDurable();
        }
        assertThat(events).containsExactly("started 3", "snapshotted 3 128", "durable 3");
    }

    static void fill(double[] a, Random rnd) {
        double v = rnd.nextGaussian();
        for (int k = 0; k < a.length; k++) {
            v += rnd.nextGaussian() * 0.01;
            a[k] = rnd.nextInt(8) == 0 ? 0 : v;
        }
    }

    /** A user entity with variable-length state. */
    static final class Counter implements Snapshotable {
        double[] values;
        long count;

        Counter(double[] values, long count) {
            this.values = values;
            this.count = count;
        }

        @Override
        public void save(StateSink sink) {
            sink.putInt(values.length);
            sink.putDoubles(values);
            sink.putLong(count);
        }

        @Override
        public void restore(StateSource source) {
            values = new double[source.getInt()];
            source.getDoubles(values);
            count = source.getLong();
        }
    }
}
