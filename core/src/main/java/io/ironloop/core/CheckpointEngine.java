package io.ironloop.core;

import io.ironloop.DirectMemory;
import io.ironloop.IronloopException;
import io.ironloop.core.internal.EntryStream;
import io.ironloop.core.internal.LineCatalog;
import io.ironloop.core.internal.LineIdentity;
import io.ironloop.core.internal.LinePersister;
import io.ironloop.core.internal.ProtectedEntry;
import io.ironloop.core.internal.Retention;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChunkSource;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.ElementType;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.EntryHeader;
import io.ironloop.format.FileMeta;
import io.ironloop.format.Manifest;
import io.ironloop.format.Scope;
import io.ironloop.format.UnsupportedVersionException;
import io.ironloop.format.WriterOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saves and restores the state an application registers, as lines of one series in a {@link Store}.
 *
 * <p>Register state with the {@code protect} methods (primitive arrays, cells, direct buffers,
 * {@link Snapshotable} entities), each with a {@link Scope}. {@link #checkpoint(long)} copies the state into
 * staging buffers (allocated by the first checkpoint; registration reserves them in the JVM's direct-memory
 * account, {@link DirectMemory#reserve}, until they are unprotected or the engine is closed), on the caller's thread, and returns; a background thread
 * encodes, checksums and persists the line and then commits it. At most {@link EngineConfig#maxInFlight()}
 * checkpoints are in flight; a further call waits. {@link #restore()} brings back the newest complete
 * line, falling back to older lines when one is corrupt.
 *
 * <p>Threading: registration, checkpoint, restore and close are meant for one application thread.
 * Failure: a background write failure leaves the previous line intact, is reported to the listener and is
 * thrown as {@link CheckpointFailedException} by the next call.
 */
public final class CheckpointEngine implements AutoCloseable {
    /** The logger, obtained on first use: a run with nothing to log never initialises SLF4J (its provider lookup scans the class path). */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(CheckpointEngine.class);
    }
    private static final String WRITER_VERSION = "ironloop-0.1";

    private final EngineConfig config;
    private final Store store;
    private final EngineListener listener;
    private final AutoCloseable lock;
    private final Map<String, ProtectedEntry> entries = new LinkedHashMap<>();
    /** The direct memory each entry's staging copies hold in the JVM's account, until unprotected or closed. */
    private final Map<String, DirectMemory.Reservation> staging = new java.util.HashMap<>();
    /** The writer thread's executor, made by the first checkpoint: an engine that never checkpoints has none. */
    private ExecutorService writer;
    private final ArrayDeque<Pending> inFlight = new ArrayDeque<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Retention retention = new Retention();
    private long nextSequence;
    private volatile LineInfo lastDurable;
    private volatile Duration lastCost = Duration.ZERO;
    private final CheckpointCosts costs = new CheckpointCosts();
    private Manifest previousManifest;
    private int linesSinceFull;
    private boolean closed;

    private CheckpointEngine(EngineConfig config, Store store, EngineListener listener) throws IOException {
        this.config = config;
        this.store = store;
        this.listener = listener;
        this.lock = store.lock(config.series());
        try {
            store.removeTemporaries(config.series());
            this.nextSequence = LineCatalog.highestSequence(store, config.series()) + 1;
        } catch (IOException | RuntimeException e) {
            closeQuietly(lock);
            throw e;
        }
    }

    /**
     * Exercises the checkpoint and restore code once, on a background daemon thread and against an in-memory
     * store, so that this JVM's first real checkpoint does not pay for loading and interpreting it (about
     * 200 ms of CPU). Call it where the application waits anyway, e.g. before joining a group. Only the first
     * call in a JVM does anything.
     */
    public static void warmUpInBackground() {
        io.ironloop.core.internal.Warmup.startOnce();
    }

    /**
     * Opens an engine writing {@code config.series()} of {@code store}: takes the series' lock and removes
     * temporaries a crashed writer left.
     *
     * @throws StoreLockedException if another engine writes the series
     * @throws IronloopException if the store cannot be read
     */
    public static CheckpointEngine open(EngineConfig config, Store store, EngineListener listener) {
        try {
            return new CheckpointEngine(config, store, listener);
        } catch (IOException e) {
            throw new IronloopException("cannot open series " + config.series() + " in " + store.location() + ": " + e, e);
        }
    }

    public static CheckpointEngine open(EngineConfig config, Store store) {
        return open(config, store, EngineListener.NONE);
    }

    public void protect(String name, Scope scope, double[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, float[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, long[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, int[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, short[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, char[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, byte[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, boolean[] array) {
        register(ProtectedEntry.array(name, scope, array, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, LongCell cell) {
        register(ProtectedEntry.array(name, scope, cell.value, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, DoubleCell cell) {
        register(ProtectedEntry.array(name, scope, cell.value, config.maxInFlight()));
    }

    /** Protects a direct buffer's bytes from 0 to its current limit. */
    public void protect(String name, Scope scope, ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("protect heap data as a byte[] instead of a heap ByteBuffer: " + name);
        }
        register(ProtectedEntry.buffer(name, scope, direct, config.maxInFlight()));
    }

    public void protect(String name, Scope scope, Snapshotable entity) {
        register(ProtectedEntry.entity(name, scope, entity, config.maxInFlight()));
    }

    /** Stops protecting {@code name} (later lines leave it out). Returns whether it was protected. */
    public boolean unprotect(String name) {
        ensureOpen();
        DirectMemory.Reservation r = staging.remove(name);
        if (r != null) {
            r.close();
        }
        return entries.remove(name) != null;
    }

    /** Names of the protected entries, in registration order. */
    public Set<String> protectedNames() {
        return Collections.unmodifiableSet(new java.util.LinkedHashSet<>(entries.keySet()));
    }

    /**
     * Takes a checkpoint at {@code iteration}: copies the protected state into staging and returns while a
     * background thread persists and commits it. Waits first if {@code maxInFlight} checkpoints are in flight.
     *
     * @throws CheckpointFailedException if an earlier background write failed (reported once)
     */
    public void checkpoint(long iteration) {
        ensureOpen();
        rethrowFailure();
        long called = System.nanoTime(); // the caller's blocking time includes waiting for a free slot
        while (inFlight.size() >= config.maxInFlight()) {
            await(inFlight.pollFirst());
        }
        long start = System.nanoTime();
        String series = config.series();
        safely(() -> listener.checkpointStarted(series, iteration));
        int slot = (int) (nextSequence % config.maxInFlight());
        List<LinePersister.Staged> staged = new ArrayList<>(entries.size());
        long stagedBytes = 0;
        try {
            for (ProtectedEntry e : entries.values()) {
                ByteBuffer bytes = e.stage(slot);
                stagedBytes += bytes.remaining();
                staged.add(new LinePersister.Staged(header(e, e.shape(slot)), bytes));
            }
        } catch (RuntimeException | Error e) {
            // an entity's save() threw: nothing was submitted, the previous line is untouched
            safely(() -> listener.checkpointFailed(series, iteration, e));
            throw e;
        }
        submit(iteration, called, start, staged, stagedBytes, false);
    }

    /**
     * Takes a checkpoint at {@code iteration} straight from the protected objects, without copying them into
     * staging, and returns when it is committed and durable. Each array and direct buffer is read chunk by chunk
     * as it is written (through two chunk-sized buffers, like a plain file write); entities and settings entries
     * are copied as {@link #checkpoint(long)} copies them. Checkpoints in flight are waited for first; the line
     * is written on the writer thread while the caller waits, and the snapshot reported with the caller's whole wait
     * ({@link EngineListener#checkpointSnapshotted}).
     *
     * <p>For state that is already a stable snapshot which nobody changes until this returns, such as the
     * runtime's published copy that a termination signal saves: it spares a full copy of the state and the
     * time to make it. The caller must guarantee that stability; a change during the write would be saved torn.
     * The data file is written past the store's caches where the store can ({@link Store#createUncached}): such a
     * save is made because the process is about to stop, and it must not wait for the kernel to find memory for
     * a page-cache copy of every byte.
     *
     * @return the line just written
     * @throws CheckpointFailedException if this or an earlier background write failed
     */
    public LineInfo checkpointInPlace(long iteration) {
        ensureOpen();
        long called = System.nanoTime(); // the caller's blocking time includes waiting for the checkpoints in flight
        awaitDurable();
        long start = System.nanoTime();
        String series = config.series();
        safely(() -> listener.checkpointStarted(series, iteration));
        List<LinePersister.Staged> staged = new ArrayList<>(entries.size());
        long bytes = 0;
        try {
            for (ProtectedEntry e : entries.values()) {
                ChunkSource source = e.scope() == Scope.SETTINGS ? null : e.inPlace();
                if (source != null) {
                    EntryHeader h = header(e, e.shape(0));
                    bytes += h.byteLength();
                    staged.add(new LinePersister.Staged(h, source));
                } else {
                    // slot 0 is free: no checkpoint is in flight
                    ByteBuffer copy = e.stage(0);
                    bytes += copy.remaining();
                    staged.add(new LinePersister.Staged(header(e, e.shape(0)), copy));
                }
            }
        } catch (RuntimeException | Error e) {
            safely(() -> listener.checkpointFailed(series, iteration, e));
            throw e;
        }
        submit(iteration, called, start, staged, bytes, true);
        awaitDurable();
        return lastDurable;
    }

    private EntryHeader header(ProtectedEntry e, long[] shape) {
        return new EntryHeader(e.name(), e.type(), shape, e.scope(), config.compression());
    }

    /**
     * Fingerprints the settings in {@code staged} and hands the line to the writer thread. The snapshot is reported
     * with the caller's blocking since {@code called}: now, or for an {@code inPlace} line, whose snapshot is its
     * write and whose caller waits for it, once it is written. An in-place line's data file is written past the
     * store's caches ({@link Store#createUncached}).
     */
    private void submit(long iteration, long called, long start, List<LinePersister.Staged> staged, long stagedBytes, boolean inPlace) {
        String fingerprint = fingerprint(staged);
        Runnable snapshotted = () -> {
            Duration blocking = Duration.ofNanos(System.nanoTime() - called);
            safely(() -> listener.checkpointSnapshotted(config.series(), iteration, blocking, stagedBytes));
        };
        if (!inPlace) {
            snapshotted.run();
        }
        long sequence = nextSequence++;
        FileMeta meta = new FileMeta(config.jobId(), iteration, config.rank(), config.worldSize(), fingerprint, Instant.now(), Map.of());
        Runnable written = inPlace ? snapshotted : () -> { };
        if (writer == null) {
            writer = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "ironloop-writer-" + config.series());
                t.setDaemon(true);
                return t;
            });
        }
        inFlight.add(new Pending(writer.submit(() -> persist(sequence, meta, staged, start, inPlace, written)),
                List.copyOf(entries.values())));
    }

    /** A checkpoint being persisted, and the entries it staged (told when it commits). */
    private record Pending(Future<LinePersister.Result> result, List<ProtectedEntry> entries) {
    }

    /**
     * Takes a checkpoint if {@code policy} says one is due, and tells the policy.
     *
     * @return whether a checkpoint was taken
     */
    public boolean checkpointIfDue(long iteration, CheckpointPolicy policy) {
        long now = System.nanoTime();
        if (!policy.due(now)) {
            return false;
        }
        checkpoint(iteration);
        policy.taken(now, lastCost);
        return true;
    }

    /**
     * Waits until every checkpoint taken so far is committed and durable.
     *
     * @return the newest durable line, or empty if none was written by this engine
     * @throws CheckpointFailedException if a background write failed
     */
    public Optional<LineInfo> awaitDurable() {
        while (!inFlight.isEmpty()) {
            await(inFlight.pollFirst());
        }
        rethrowFailure();
        return Optional.ofNullable(lastDurable);
    }

    /** Cost (snapshot to durable) of the most recent durable checkpoint. */
    public Duration lastCost() {
        return lastCost;
    }

    /**
     * The costs (snapshot to durable) of this engine's recent lines, recorded as each line becomes durable:
     * what {@link CheckpointPolicy#youngDaly(CheckpointCosts, Duration)} reads.
     */
    public CheckpointCosts costs() {
        return costs;
    }

    /** Committed lines of this engine's series, oldest first. */
    public List<LineInfo> lines() {
        try {
            return LineCatalog.committed(store, config.series(), (name, e) -> Log.LOG.warn("ignoring unreadable commit record {}: {}", name, e.getMessage()));
        } catch (IOException e) {
            throw new IronloopException("cannot list lines of " + config.series() + " in " + store.location() + ": " + e, e);
        }
    }

    /**
     * Restores the newest complete line into the protected objects, verifying every checksum. Each entry is
     * streamed chunk by chunk straight into its array or buffer (entities through their staging buffer), so
     * an object only receives verified bytes. A line that cannot be used is skipped with a warning naming the
     * file and why, and the previous one is tried (it overwrites whatever the skipped line had already
     * restored): a corrupt line, a data file that is not the one its commit record committed (another rank's,
     * line's or job's file), and an intact line that lacks a protected entry or holds one with another type
     * or shape ({@link EntryMismatchException}, checked before anything is restored).
     *
     * @return the line restored, or empty when the series has no committed line
     * @throws SettingsMismatchException if the line was made under other settings (unless ignoreSettings)
     * @throws UnsupportedVersionException if a newer Ironloop wrote the newest line: upgrade rather than roll back
     * @throws NoIntactCheckpointException if lines exist but none is usable
     */
    public Optional<LineInfo> restore() {
        awaitDurable();
        long start = System.nanoTime();
        safely(() -> listener.restoreStarted(config.series()));
        Optional<LineInfo> restored;
        try {
            restored = restoreNewestIntact();
        } catch (RuntimeException | Error e) {
            safely(() -> listener.restoreFailed(config.series(), e));
            throw e;
        }
        safely(() -> listener.restoreFinished(config.series(), restored.orElse(null), Duration.ofNanos(System.nanoTime() - start)));
        return restored;
    }

    private Optional<LineInfo> restoreNewestIntact() {
        String current = fingerprint(stageSettings());
        return newestIntact("restored", " the protected objects may be partly overwritten: reinitialise them"
                + " before starting fresh", line -> {
                    if (!config.ignoreSettings() && !line.settingsFingerprint().equals(current)) {
                        throw new SettingsMismatchException(store.location() + "/" + line.dataFile(), current, line.settingsFingerprint());
                    }
                }, (line, reader) -> {
                    checkMatches(line, reader.manifest());
                    for (ProtectedEntry e : entries.values()) {
                        e.restoreFrom(reader, line.dataFile(), reader.manifest().entry(e.name()).orElseThrow());
                    }
                    lastDurable = line;
                    return line;
                });
    }

    /**
     * Reads the newest intact line of this engine's series as new arrays, without touching protected objects
     * and without comparing settings.
     *
     * @return the state, or empty when no line is committed
     * @throws NoIntactCheckpointException if lines exist but none is intact
     * @throws IllegalStateException if the newest intact line needs more memory than the heap has left
     */
    public Optional<RestoredState> read() {
        return newestIntact("read", "", line -> { }, (line, reader) -> {
            checkHeapFor(line, reader.manifest());
            Map<String, ElementType> types = new HashMap<>();
            Map<String, ByteBuffer> bytes = new HashMap<>();
            for (EntryDescriptor d : reader.manifest().entries()) {
                types.put(d.name(), d.header().type());
                bytes.put(d.name(), EntryStream.readNew(reader, line.dataFile(), d));
            }
            return new RestoredState(line, types, bytes);
        });
    }

    /**
     * Refuses to read a line whose entries need more new heap than this JVM can still give: zero chunks take
     * no room on disk, so a small file may claim gigabytes, and an OutOfMemoryError halfway would leave the
     * application in an unknown state.
     *
     * @throws IllegalStateException naming the line, what it needs and what is left
     */
    private static void checkHeapFor(LineInfo line, Manifest manifest) {
        long needed = manifest.entries().stream().mapToLong(d -> d.header().byteLength()).sum();
        Runtime rt = Runtime.getRuntime();
        long left = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (needed > left) {
            throw new IllegalStateException("line " + line.dataFile() + " holds " + needed + " bytes of entries, more than the "
                    + left + " bytes left on this JVM's heap: raise -Xmx, or restore() into registered objects instead of read()");
        }
    }

    /** Reads one line with an open, validated reader. */
    @FunctionalInterface
    private interface LineReader<T> {
        T read(LineInfo line, CheckpointReader reader) throws IOException;
    }

    /**
     * The one fallback loop behind {@link #restore()} and {@link #read()}: offers the committed lines newest
     * first to {@code admit} (which may refuse by throwing, ending the search), then opens each, checks that
     * its data file is the one its commit record committed ({@link LineIdentity}) and hands it to
     * {@code reader}. A line that turns out corrupt, unreadable, another file than committed, or not holding
     * the protected entries is reported with a warning naming its file and the difference, and the next older
     * one is tried. Commit records newer than the line restored that do not hold are reported the same way.
     * A line or commit record written by a newer major format version stops the search: restoring an older
     * line instead would silently roll back state a newer Ironloop saved.
     *
     * @param done what succeeding means, for messages ("restored", "read")
     * @param advice appended to the message when no line is intact
     * @return what {@code reader} returned for the newest intact line, or empty when no line is committed
     * @throws UnsupportedVersionException when a newer Ironloop wrote a line newer than every usable one
     * @throws NoIntactCheckpointException when lines exist but none is usable; each failure is suppressed in it
     */
    private <T> Optional<T> newestIntact(String done, String advice, java.util.function.Consumer<LineInfo> admit, LineReader<T> reader) {
        Map<String, RuntimeException> invalid = new java.util.TreeMap<>();
        List<LineInfo> lines;
        try {
            lines = LineCatalog.committed(store, config.series(), invalid::put);
        } catch (IOException e) {
            throw new IronloopException("cannot list lines of " + config.series() + " in " + store.location() + ": " + e, e);
        }
        List<Exception> failures = new ArrayList<>();
        for (int i = lines.size() - 1; i >= 0; i--) {
            LineInfo line = lines.get(i);
            refuseNewerFormat(invalid, line.sequence());
            admit.accept(line);
            try (SeekableByteChannel ch = store.openRead(line.dataFile())) {
                CheckpointReader opened = CheckpointReader.open(ch, line.dataFile(), store::openRead);
                LineIdentity.check(line, opened.manifest());
                T result = reader.read(line, opened);
                reportSkippedRecords(invalid, line);
                return Optional.of(result);
            } catch (CorruptCheckpointException | EntryMismatchException | IOException e) {
                if (e instanceof UnsupportedVersionException u && u.newer()) {
                    throw u;
                }
                Log.LOG.warn("checkpoint {} of {} cannot be {} ({}); falling back to the previous line", line.dataFile(), store.location(),
                        done, e.getMessage());
                safely(() -> listener.restoreFellBack(line, e));
                failures.add(e);
            }
        }
        refuseNewerFormat(invalid, 0);
        reportSkippedRecords(invalid, null);
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        NoIntactCheckpointException none = new NoIntactCheckpointException("none of the " + lines.size() + " committed lines of series "
                + config.series() + " in " + store.location() + " can be " + done + " (the newest: " + failures.get(0).getMessage() + ");"
                + (advice.isEmpty() ? " see the suppressed causes" : advice));
        failures.forEach(none::addSuppressed);
        throw none;
    }

    /** Throws the first commit record of a newer format whose line is newer than {@code sequence}. */
    private static void refuseNewerFormat(Map<String, RuntimeException> invalid, long sequence) {
        for (Map.Entry<String, RuntimeException> e : invalid.entrySet()) {
            if (e.getValue() instanceof UnsupportedVersionException u && u.newer() && LineCatalog.sequenceOf(e.getKey(), null) > sequence) {
                throw u;
            }
        }
    }

    /** Warns about the invalid commit records newer than {@code restored} (all of them when it is null). */
    private void reportSkippedRecords(Map<String, RuntimeException> invalid, LineInfo restored) {
        for (Map.Entry<String, RuntimeException> e : invalid.entrySet()) {
            if (restored == null || LineCatalog.sequenceOf(e.getKey(), null) > restored.sequence()) {
                Log.LOG.warn("commit record {} of {} does not hold ({}); its line is skipped{}", e.getKey(), store.location(),
                        e.getValue().getMessage(), restored == null ? "" : " and the older line " + restored.sequence() + " is used");
                safely(() -> listener.restoreSkippedRecord(e.getKey(), e.getValue()));
            }
        }
    }

    /** SHA-256 (hex) of the settings entries as registered now. */
    public String settingsFingerprint() {
        return fingerprint(stageSettings());
    }

    public EngineConfig config() {
        return config;
    }

    /** Waits for checkpoints in flight, stops the writer thread and releases the series' lock. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            while (!inFlight.isEmpty()) {
                await(inFlight.pollFirst());
            }
        } finally {
            closed = true;
            if (writer != null) {
                writer.shutdown();
            }
            closeQuietly(lock);
            for (DirectMemory.Reservation r : staging.values()) {
                r.close();
            }
            staging.clear();
        }
        rethrowFailure();
    }

    /** Writes and commits a line on the writer thread; {@code written} runs once it is, before it is reported durable. */
    private LinePersister.Result persist(long sequence, FileMeta meta, List<LinePersister.Staged> staged, long start,
                                         boolean uncached, Runnable written) throws Exception {
        try {
            boolean full = !config.differential() || previousManifest == null || linesSinceFull + 1 >= config.fullEvery();
            WriterOptions options = new WriterOptions(config.chunkSize(), config.compressionLevel(), config.differential());
            LinePersister.Result r = LinePersister.persist(store, config.series(), sequence, meta, staged, options,
                    full ? null : previousManifest, uncached);
            previousManifest = r.summary().manifest();
            linesSinceFull = full ? 0 : linesSinceFull + 1;
            lastCost = Duration.ofNanos(System.nanoTime() - start);
            costs.record(lastCost);
            lastDurable = r.line();
            try {
                retention.apply(store, config.series(), meta.settingsFingerprint(), config.retainLines());
            } catch (IOException | RuntimeException e) {
                Log.LOG.warn("retention of series {} in {} failed (old lines kept): {}", config.series(), store.location(), e.toString());
            }
            written.run();
            safely(() -> listener.checkpointDurable(r.line(), lastCost, r.summary().fileBytes()));
            return r;
        } catch (Exception | Error e) {
            failure.compareAndSet(null, e);
            safely(() -> listener.checkpointFailed(config.series(), meta.iteration(), e));
            throw e;
        }
    }

    private void register(ProtectedEntry e) {
        ensureOpen();
        if (entries.containsKey(e.name())) {
            throw new IllegalStateException("'" + e.name() + "' is already protected; unprotect it first to replace it");
        }
        ProtectedEntry.checkSize(e.name(), e.stagingBytes());
        staging.put(e.name(), DirectMemory.reserve("protecting '" + e.name() + "' (staging copies: " + e.stagingBytes()
                + " bytes × MAX_IN_FLIGHT " + config.maxInFlight() + ", allocated off the heap by the first checkpoint)",
                e.stagingBytes() * config.maxInFlight(), "raise -XX:MaxDirectMemorySize (default: the maximum heap, -Xmx), lower "
                + "MAX_IN_FLIGHT, protect less or close the engines no longer needed"));
        entries.put(e.name(), e);
    }

    /** The settings entries as registered now, copied without disturbing a checkpoint in flight. */
    private List<LinePersister.Staged> stageSettings() {
        boolean idle = inFlight.stream().allMatch(p -> p.result().isDone());
        List<LinePersister.Staged> staged = new ArrayList<>();
        for (ProtectedEntry e : entries.values()) {
            if (e.scope() == Scope.SETTINGS) {
                // staging slot 0 may be reused only while no checkpoint is being written from it
                ByteBuffer bytes = idle ? e.stage(0) : e.copyNow();
                long[] shape = {bytes.remaining() / e.type().width()};
                staged.add(new LinePersister.Staged(header(e, shape), bytes));
            }
        }
        return staged;
    }

    private static String fingerprint(List<LinePersister.Staged> staged) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
        staged.stream().filter(s -> s.header().scope() == Scope.SETTINGS)
                .sorted((a, b) -> a.header().name().compareTo(b.header().name()))
                .forEach(s -> {
                    sha.update((s.header().name() + "\0" + s.header().type() + "\0" + java.util.Arrays.toString(s.header().shape()) + "\0")
                            .getBytes(StandardCharsets.UTF_8));
                    sha.update(s.bytes().duplicate());
                });
        return HexFormat.of().formatHex(sha.digest());
    }

    /**
     * Checks, before anything is restored, that {@code line} holds every protected entry with a type and shape
     * it can be restored into.
     *
     * @throws EntryMismatchException naming the entry, what the line holds and what is registered
     */
    private void checkMatches(LineInfo line, Manifest manifest) {
        for (ProtectedEntry e : entries.values()) {
            EntryDescriptor d = manifest.entry(e.name()).orElseThrow(() -> new EntryMismatchException(line.dataFile(),
                    "has no entry '" + e.name() + "' (it has " + manifest.entries().stream().map(EntryDescriptor::name).toList()
                    + "): protect the same state as the run that wrote it, or unprotect '" + e.name() + "' before restoring"));
            if (!e.accepts(d.header().type(), d.header().shape())) {
                throw new EntryMismatchException(line.dataFile(), "holds '" + e.name() + "' as " + d.header().type()
                        + java.util.Arrays.toString(d.header().shape()) + " but it is protected as " + e.type()
                        + java.util.Arrays.toString(e.shape(0)) + ": restore with the same shapes, or read() it as new arrays");
            }
        }
    }

    /**
     * Waits for {@code p} to be durable; once it is, tells its entries (entities swap their snapshot
     * buffers, as waLBerla's do after the commit handshake), on this, the application's, thread.
     */
    private void await(Pending p) {
        try {
            p.result().get();
            p.entries().forEach(ProtectedEntry::committed);
        } catch (ExecutionException e) {
            failure.compareAndSet(null, e.getCause());
        } catch (InterruptedException e) {
            // still in flight: keep waiting for it next time
            inFlight.addFirst(p);
            Thread.currentThread().interrupt();
            throw new IronloopException("interrupted while waiting for a checkpoint to become durable", e);
        }
        rethrowFailure();
    }

    private void rethrowFailure() {
        Throwable t = failure.getAndSet(null);
        if (t != null) {
            LineInfo last = lastDurable;
            throw new CheckpointFailedException("a checkpoint of series " + config.series() + " in " + store.location() + " failed: " + t
                    + (last == null ? "" : "; the previous line " + last.sequence() + " (iteration " + last.iteration() + ") is intact"), t);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the engine of series " + config.series() + " is closed");
        }
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            Log.LOG.warn("an engine listener threw (ignored): {}", e.toString());
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            Log.LOG.warn("could not release {}: {}", c, e.toString());
        }
    }
}
