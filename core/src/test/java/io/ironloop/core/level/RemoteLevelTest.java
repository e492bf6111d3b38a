package io.ironloop.core.level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineListener;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LineReplicator} and {@link LineFallback} over shared directories: real files, real fsync. */
class RemoteLevelTest {
    private static final String SERIES = "rank-00000";

    @TempDir
    Path dir;

    private final double[] state = new double[20_000];

    private EngineConfig config() {
        return EngineConfig.builder().chunkSize(4096).series(SERIES).retainLines(2).build();
    }

    /**
     * Writes lines at iterations 1..n through an engine whose durable lines go to the replicator, each copied before the
     * next is written; returns the last state.
     */
    private double[] writeLines(Store local, LineReplicator replicator, int n) throws InterruptedException {
        try (CheckpointEngine engine = CheckpointEngine.open(config(), local, replicator.listening(EngineListener.NONE))) {
            engine.protect("state", Scope.GLOBAL, state);
            Random rnd = new Random(7);
            for (int it = 1; it <= n; it++) {
                for (int k = 0; k < state.length; k++) {
                    state[k] = rnd.nextDouble() + it;
                }
                engine.checkpoint(it);
                engine.awaitDurable(); // the engine has told the replicator by then
                assertThat(replicator.awaitIdle(Duration.ofSeconds(30))).isTrue(); // one line at a time: none is superseded
            }
        }
        assertThat(replicator.awaitIdle(Duration.ofSeconds(30))).isTrue();
        return state.clone();
    }

    private static long restoredIteration(Store local, double[] into) {
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().chunkSize(4096).series(SERIES).build(), local)) {
            engine.protect("state", Scope.GLOBAL, into);
            return engine.restore().orElseThrow().iteration();
        }
    }

    @Test
    void copyFrom_aFileByTransferAndAnyChannelThroughTheBuffer_publishIdenticalBytes() throws Exception {
        byte[] bytes = new byte[Store.COPY_BUFFER * 2 + 12_345]; // crosses the copy buffer twice
        new Random(3).nextBytes(bytes);
        Path source = Files.write(dir.resolve("source"), bytes);
        try (Store to = Store.directory(dir.resolve("copies"))) {
            try (FileChannel file = FileChannel.open(source)) {
                to.copyFrom(file, SERIES + "/by-transfer"); // FileChannel.transferTo: the kernel copies
            }
            try (FileChannel file = FileChannel.open(source)) {
                to.copyFrom(new java.nio.channels.SeekableByteChannel() { // not a FileChannel: through the copy buffer
                    public int read(ByteBuffer dst) throws IOException {
                        return file.read(dst);
                    }

                    public int write(ByteBuffer src) {
                        throw new java.nio.channels.NonWritableChannelException();
                    }

                    public long position() throws IOException {
                        return file.position();
                    }

                    public java.nio.channels.SeekableByteChannel position(long p) throws IOException {
                        file.position(p);
                        return this;
                    }

                    public long size() throws IOException {
                        return file.size();
                    }

                    public java.nio.channels.SeekableByteChannel truncate(long size) {
                        throw new java.nio.channels.NonWritableChannelException();
                    }

                    public boolean isOpen() {
                        return file.isOpen();
                    }

                    public void close() {
                    }
                }, SERIES + "/buffered");
            }
        }
        assertThat(Files.readAllBytes(dir.resolve("copies").resolve(SERIES).resolve("by-transfer"))).isEqualTo(bytes);
        assertThat(Files.readAllBytes(dir.resolve("copies").resolve(SERIES).resolve("buffered"))).isEqualTo(bytes);
    }

    @Test
    void copyUncachedFrom_aFileMappedAndWrittenPastTheCache_publishesIdenticalBytesOnce() throws Exception {
        byte[] bytes = new byte[3 * 4096 * 1000 + 777]; // whole blocks by direct I/O, then a partial block through the cache
        new Random(4).nextBytes(bytes);
        Path source = Files.write(dir.resolve("source"), bytes);
        try (Store to = Store.directory(dir.resolve("copies")); FileChannel file = FileChannel.open(source)) {
            to.copyUncachedFrom(file, SERIES + "/uncached");

            assertThatThrownBy(() -> to.copyUncachedFrom(file, SERIES + "/uncached")).isInstanceOf(FileAlreadyExistsException.class);
            assertThat(to.listFiles(SERIES)).containsExactly(SERIES + "/uncached"); // no temporary left behind
        }
        assertThat(Files.readAllBytes(dir.resolve("copies").resolve(SERIES).resolve("uncached"))).isEqualTo(bytes);
    }

    @Test
    void replicator_linesCommittedLocally_areCommittedOnEveryLevelWithItsOwnRetention() throws Exception {
        Store local = Store.directory(dir.resolve("local"));
        List<String> copied = new ArrayList<>();
        try (LineReplicator r = new LineReplicator(local, List.of(RemoteLevel.sharedDirectory(dir.resolve("shared"), 1),
                new RemoteLevel("archive", Store.directory(dir.resolve("archive")), 3)), new LineReplicator.Listener() {
                    @Override
                    public synchronized void copied(String level, LineInfo line, Duration took, long bytes) {
                        copied.add(level + ":" + line.iteration());
                    }
                })) {
            writeLines(local, r, 4);
        }
        assertThat(copied).containsExactlyInAnyOrder("shared:1", "shared:2", "shared:3", "shared:4", "archive:1", "archive:2",
                "archive:3", "archive:4");
        StoreCatalog shared = StoreCatalog.of(Store.directory(dir.resolve("shared")));
        StoreCatalog archive = StoreCatalog.of(Store.directory(dir.resolve("archive")));
        assertThat(shared.lines(SERIES)).extracting(LineInfo::iteration).containsExactly(4L);
        assertThat(archive.lines(SERIES)).extracting(LineInfo::iteration).containsExactly(2L, 3L, 4L);
        assertThat(shared.verifyStore().problems()).isEmpty();
        assertThat(archive.verifyStore().problems()).isEmpty();
    }

    @Test
    void replicator_retentionFailsAfterTheCommit_theLineIsReportedCommittedNotFailed() throws Exception {
        Store local = Store.directory(dir.resolve("local"));
        Store real = Store.directory(dir.resolve("shared"));
        Store undeletable = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, m, args) -> {
            if (m.getName().equals("delete")) {
                throw new java.io.IOException("injected: this level refuses deletions");
            }
            try {
                return m.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        List<String> events = new ArrayList<>();
        try (LineReplicator r = new LineReplicator(local, List.of(new RemoteLevel("shared", undeletable, 1)), new LineReplicator.Listener() {
            @Override
            public synchronized void copied(String level, LineInfo line, Duration took, long bytes) {
                events.add("copied:" + line.iteration());
            }

            @Override
            public synchronized void copyFailed(String level, LineInfo line, Throwable cause) {
                events.add("failed:" + line.iteration());
            }
        })) {
            writeLines(local, r, 3);
        }
        assertThat(events).containsExactly("copied:1", "copied:2", "copied:3");
        // retention could not remove lines 1 and 2: all three are committed there
        assertThat(StoreCatalog.of(real).lines(SERIES)).extracting(LineInfo::iteration).containsExactly(1L, 2L, 3L);
    }

    @Test
    void replicator_levelEverySecondLineWithABandwidthBudget_takesEverySecondLineNoFasterThanItsBudget() throws Exception {
        Store local = Store.directory(dir.resolve("local"));
        List<String> copied = new ArrayList<>();
        long budget = 1 << 20; // 1 MiB/s: a line of this state (160 kB) takes ≥ 0.15 s
        List<Duration> took = new ArrayList<>();
        try (LineReplicator r = new LineReplicator(local, List.of(RemoteLevel.sharedDirectory(dir.resolve("shared"), 5,
                io.ironloop.core.Schedule.every(2), budget), new RemoteLevel("all", Store.directory(dir.resolve("all")), 5)),
                new LineReplicator.Listener() {
                    @Override
                    public synchronized void copied(String level, LineInfo line, Duration t, long bytes) {
                        copied.add(level + ":" + line.iteration());
                        if (level.equals("shared")) {
                            took.add(t.minusNanos((long) (bytes * 1e9 / budget) * 9 / 10));
                        }
                    }
                })) {
            writeLines(local, r, 5);
        }
        assertThat(copied).containsExactlyInAnyOrder("shared:1", "shared:3", "shared:5", "all:1", "all:2", "all:3", "all:4", "all:5");
        assertThat(took).as("each copy took at least 90 % of bytes / budget").allSatisfy(d -> assertThat(d.isNegative()).isFalse());
        assertThat(StoreCatalog.of(Store.directory(dir.resolve("shared"))).lines(SERIES)).extracting(LineInfo::iteration)
                .containsExactly(1L, 3L, 5L);
    }

    @Test
    void remoteLevel_adaptiveSchedule_isRefusedSayingWhatToGive() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LevelKeys.SHARED_EVERY.parse("adaptive"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'adaptive' is not a remote level's schedule")
                .hasMessageContaining("adapt DISK_EVERY instead");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LevelKeys.S3_BANDWIDTH.parse("-1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(LevelKeys.SHARED_EVERY.parse("3")).isEqualTo(io.ironloop.core.Schedule.every(3));
        assertThat(LevelKeys.S3_BANDWIDTH.parse("200MiB")).isEqualTo(200L << 20);
    }

    @Test
    void fetchMissing_emptyLocalStore_bringsBackTheLinesAndTheEngineRestoresBitForBit() throws Exception {
        Store first = Store.directory(dir.resolve("first-machine"));
        double[] last;
        try (LineReplicator r = new LineReplicator(first, List.of(RemoteLevel.sharedDirectory(dir.resolve("shared"), 2)),
                LineReplicator.Listener.NONE)) {
            last = writeLines(first, r, 3);
        }
        Store fresh = Store.directory(dir.resolve("fresh-machine"));
        LineFallback.Fetched f = LineFallback.fetchMissing(fresh, List.of(RemoteLevel.sharedDirectory(dir.resolve("shared"), 2)), SERIES);

        assertThat(f.level()).isEqualTo("shared");
        assertThat(f.lines()).extracting(LineInfo::iteration).containsExactly(2L, 3L);
        double[] restored = new double[state.length];
        assertThat(restoredIteration(fresh, restored)).isEqualTo(3);
        assertThat(restored).isEqualTo(last);
    }

    @Test
    void fetchMissing_nearestLevelEmptyAndNextDamaged_fallsBackLevelByLevelNamingWhy() throws Exception {
        Store first = Store.directory(dir.resolve("first-machine"));
        try (LineReplicator r = new LineReplicator(first, List.of(RemoteLevel.sharedDirectory(dir.resolve("good"), 2),
                new RemoteLevel("damaged", Store.directory(dir.resolve("damaged")), 2)), LineReplicator.Listener.NONE)) {
            writeLines(first, r, 2);
        }
        // every line of the second level gets a flipped byte in the middle of its data file (a seeded position)
        Random rnd = new Random(11);
        try (var files = Files.list(dir.resolve("damaged").resolve(SERIES))) {
            for (Path p : files.filter(p -> p.toString().endsWith(".ilc")).toList()) {
                try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    long at = ch.size() / 4 + rnd.nextInt((int) (ch.size() / 2));
                    ByteBuffer b = ByteBuffer.allocate(1);
                    ch.read(b, at);
                    b.put(0, (byte) (b.get(0) ^ 0x5a)).rewind();
                    ch.write(b, at);
                }
            }
        }
        List<RemoteLevel> levels = List.of(new RemoteLevel("empty", Store.directory(dir.resolve("empty")), 2),
                new RemoteLevel("damaged", Store.directory(dir.resolve("damaged")), 2), RemoteLevel.sharedDirectory(dir.resolve("good"), 2));
        Store fresh = Store.directory(dir.resolve("fresh-machine"));

        LineFallback.Fetched f = LineFallback.fetchMissing(fresh, levels, SERIES);

        assertThat(f.level()).isEqualTo("shared");
        assertThat(f.skipped()).hasSize(2);
        assertThat(f.skipped().get(0)).startsWith("empty: no line newer");
        assertThat(f.skipped().get(1)).startsWith("damaged: damaged").contains("line-000000000001.ilc", "line-000000000002.ilc");
        assertThat(StoreCatalog.of(fresh).lines(SERIES)).extracting(LineInfo::iteration).containsExactly(1L, 2L);
        assertThat(StoreCatalog.of(fresh).verifyStore().problems()).isEmpty();
    }

    @Test
    void fetchMissing_dataWithoutCommitRecordOnTheLevel_isNeverBroughtBack() throws IOException, InterruptedException {
        Store first = Store.directory(dir.resolve("first-machine"));
        try (LineReplicator r = new LineReplicator(first, List.of(RemoteLevel.sharedDirectory(dir.resolve("shared"), 2)),
                LineReplicator.Listener.NONE)) {
            writeLines(first, r, 2);
        }
        // a copy interrupted between the data file and the commit record of line 2
        Files.delete(dir.resolve("shared").resolve(SERIES).resolve("line-000000000002.commit"));
        Store fresh = Store.directory(dir.resolve("fresh-machine"));

        LineFallback.Fetched f = LineFallback.fetchMissing(fresh, List.of(RemoteLevel.sharedDirectory(dir.resolve("shared"), 2)), SERIES);

        assertThat(f.lines()).extracting(LineInfo::iteration).containsExactly(1L);
        assertThat(restoredIteration(fresh, new double[state.length])).isEqualTo(1);
    }

    @Test
    void submit_levelStillBusy_skipsQueuedLinesSupersededByANewerOne() throws Exception {
        Store local = Store.directory(dir.resolve("local"));
        List<LineInfo> lines = new ArrayList<>();
        try (CheckpointEngine engine = CheckpointEngine.open(EngineConfig.builder().chunkSize(4096).series(SERIES).retainLines(3)
                .build(), local, new EngineListener() {
                    @Override
                    public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                        lines.add(line);
                    }
                })) {
            engine.protect("state", Scope.GLOBAL, state);
            for (int it = 1; it <= 3; it++) {
                engine.checkpoint(it);
                engine.awaitDurable();
            }
        }
        // a level whose first listing waits until the test lets it go: line 1's copy holds the level's thread
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Store real = Store.directory(dir.resolve("shared"));
        AtomicBoolean first = new AtomicBoolean(true);
        Store slow = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, m, args) -> {
            if (m.getName().equals("listFiles") && first.getAndSet(false)) {
                entered.countDown();
                release.await();
            }
            try {
                return m.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        List<Long> copied = new ArrayList<>();
        try (LineReplicator r = new LineReplicator(local, List.of(new RemoteLevel("slow", slow, 3)), new LineReplicator.Listener() {
            @Override
            public synchronized void copied(String level, LineInfo line, Duration took, long bytes) {
                copied.add(line.iteration());
            }
        })) {
            r.submit(lines.get(0));
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
            r.submit(lines.get(1));
            r.submit(lines.get(2));
            release.countDown();
            assertThat(r.awaitIdle(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(copied).containsExactly(1L, 3L); // line 2 was superseded by line 3 before the level reached it
    }

    @Test
    void catchUp_linesCommittedLocallyButNotCopied_theNewestIsCopiedByTheNextProcess() throws Exception {
        Store local = Store.directory(dir.resolve("local"));
        try (LineReplicator none = new LineReplicator(local, List.of(), LineReplicator.Listener.NONE)) {
            writeLines(local, none, 3); // as if the process died before its copies
        }
        try (LineReplicator r = new LineReplicator(local, List.of(RemoteLevel.sharedDirectory(dir.resolve("shared"), 2)),
                LineReplicator.Listener.NONE)) {
            r.catchUp(SERIES);
            assertThat(r.awaitIdle(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(StoreCatalog.of(Store.directory(dir.resolve("shared"))).lines(SERIES)).extracting(LineInfo::iteration)
                .containsExactly(3L);
    }
}
