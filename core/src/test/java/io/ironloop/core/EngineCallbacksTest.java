package io.ironloop.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the engine tells listeners and entities, and when. */
class EngineCallbacksTest {

    private static EngineConfig.Builder config() {
        return EngineConfig.builder().chunkSize(4096);
    }

    @Test
    void awaitDurable_entityInCommittedLines_swapsOncePerLineOnTheCallersThread() {
        SwappingEntity entity = new SwappingEntity();
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), Store.inMemory())) {
            e.protect("entity", Scope.LOCAL, entity);
            e.checkpoint(1);
            e.checkpoint(2); // waits for line 1 (one in flight): line 1's swap happens here
            assertThat(entity.swaps).containsExactly(Thread.currentThread());
            e.awaitDurable();
            assertThat(entity.swaps).containsExactly(Thread.currentThread(), Thread.currentThread());
            e.awaitDurable();
            assertThat(entity.swaps).as("each committed line swaps once").hasSize(2);
        }
    }

    @Test
    void awaitDurable_lineFailsToPersist_entityIsNotSwapped() {
        SwappingEntity entity = new SwappingEntity();
        DiskFullTest.FullAfter store = new DiskFullTest.FullAfter(Store.inMemory(), Long.MAX_VALUE);
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("entity", Scope.LOCAL, entity);
            e.checkpoint(1);
            e.awaitDurable();
            store.budget = 10;
            e.checkpoint(2);
            assertThatThrownBy(e::awaitDurable).isInstanceOf(CheckpointFailedException.class);
            assertThat(entity.swaps).as("only line 1 committed").hasSize(1);
        }
    }

    @Test
    void restore_settingsMismatch_endsWithRestoreFailedAfterRestoreStarted() {
        Store store = Store.inMemory();
        int[] settings = {1};
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("settings", Scope.SETTINGS, settings);
            e.checkpoint(1);
        }
        settings[0] = 2;
        Events events = new Events();
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store, events)) {
            e.protect("settings", Scope.SETTINGS, settings);
            assertThatThrownBy(e::restore).isInstanceOf(SettingsMismatchException.class);
        }
        assertThat(events.list).containsExactly("restoreStarted", "restoreFailed SettingsMismatchException");
    }

    @Test
    void checkpoint_entitySaveThrows_reportsCheckpointFailedAndKeepsThePreviousLine() {
        Events events = new Events();
        boolean[] broken = {false};
        Snapshotable fragile = new Snapshotable() {
            @Override
            public void save(StateSink sink) {
                if (broken[0]) {
                    throw new IllegalStateException("cannot save now");
                }
                sink.putLong(42);
            }

            @Override
            public void restore(StateSource source) {
                assertThat(source.getLong()).isEqualTo(42);
            }
        };
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), Store.inMemory(), events)) {
            e.protect("fragile", Scope.LOCAL, fragile);
            e.checkpoint(1);
            e.awaitDurable();
            broken[0] = true;
            assertThatThrownBy(() -> e.checkpoint(2)).hasMessage("cannot save now");
            broken[0] = false;
            assertThat(e.lines()).extracting(LineInfo::iteration).containsExactly(1L);
            assertThat(e.restore().orElseThrow().iteration()).isEqualTo(1);
        }
        assertThat(events.list).containsExactly("checkpointStarted 1", "checkpointSnapshotted 1", "checkpointDurable 1",
                "checkpointStarted 2", "checkpointFailed 2 IllegalStateException", "restoreStarted", "restoreFinished 1");
    }

    @Test
    void checkpointAndRestore_listenerThrowsEverywhere_engineCarriesOn() {
        EngineListener hostile = new EngineListener() {
            @Override
            public void checkpointStarted(String series, long iteration) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void checkpointSnapshotted(String series, long iteration, Duration blocking, long stagedBytes) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void restoreStarted(String series) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void restoreFinished(String series, LineInfo line, Duration took) {
                throw new IllegalStateException("listener bug");
            }
        };
        double[] x = {1, 2, 3};
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), Store.inMemory(), hostile)) {
            e.protect("x", Scope.LOCAL, x);
            e.checkpoint(1);
            e.awaitDurable();
            x[0] = 9;
            assertThat(e.restore().orElseThrow().iteration()).isEqualTo(1);
        }
        assertThat(x).containsExactly(1, 2, 3);
    }

    @Test
    void settingsFingerprint_whileALineIsBeingWritten_leavesThatLineAsStaged() throws Exception {
        GatedStore store = new GatedStore(Store.inMemory());
        int[] settings = new int[4096];
        java.util.Arrays.fill(settings, 1);
        try (CheckpointEngine e = CheckpointEngine.open(config().build(), store)) {
            e.protect("settings", Scope.SETTINGS, settings);
            String before = e.settingsFingerprint();
            e.checkpoint(1);
            assertThat(store.writing.await(10, TimeUnit.SECONDS)).isTrue();
            java.util.Arrays.fill(settings, 2);
            String during = e.settingsFingerprint(); // must not restage the buffer the writer is reading
            store.gate.countDown();
            LineInfo line = e.awaitDurable().orElseThrow();
            assertThat(during).isNotEqualTo(before);
            assertThat(line.settingsFingerprint()).isEqualTo(before);
            assertThat(e.read().orElseThrow().ints("settings")).containsOnly(1);
        }
    }

    /** Records listener events as short strings. */
    static final class Events implements EngineListener {
        final List<String> list = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void checkpointStarted(String series, long iteration) {
            list.add("checkpointStarted " + iteration);
        }

        @Override
        public void checkpointSnapshotted(String series, long iteration, Duration blocking, long stagedBytes) {
            list.add("checkpointSnapshotted " + iteration);
        }

        @Override
        public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
            list.add("checkpointDurable " + line.iteration());
        }

        @Override
        public void checkpointFailed(String series, long iteration, Throwable cause) {
            list.add("checkpointFailed " + iteration + " " + cause.getClass().getSimpleName());
        }

        @Override
        public void restoreStarted(String series) {
            list.add("restoreStarted");
        }

        @Override
        public void restoreFinished(String series, LineInfo line, Duration took) {
            list.add("restoreFinished " + (line == null ? "nothing" : line.iteration()));
        }

        @Override
        public void restoreFellBack(LineInfo line, Throwable cause) {
            list.add("restoreFellBack " + line.iteration());
        }

        @Override
        public void restoreFailed(String series, Throwable cause) {
            list.add("restoreFailed " + cause.getClass().getSimpleName());
        }
    }

    /** An entity with waLBerla-style snapshot buffers that records the threads its swaps ran on. */
    static final class SwappingEntity implements Snapshotable {
        final List<Thread> swaps = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void save(StateSink sink) {
            sink.putLong(swaps.size());
        }

        @Override
        public void restore(StateSource source) {
            source.getLong();
        }

        @Override
        public void swap() {
            swaps.add(Thread.currentThread());
        }
    }

    /** Delegates to a store, but holds the first write of the first data file until {@link #gate} opens. */
    static final class GatedStore extends InterceptingStore {
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch gate = new CountDownLatch(1);

        GatedStore(Store delegate) {
            super(delegate);
        }

        @Override
        protected void beforeWrite(String name, ByteBuffer src) throws IOException {
            if (name.endsWith(".ilc") && writing.getCount() > 0) {
                writing.countDown();
                try {
                    if (!gate.await(30, TimeUnit.SECONDS)) {
                        throw new IOException("gate never opened");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }
    }
}
