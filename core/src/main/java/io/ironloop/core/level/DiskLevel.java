package io.ironloop.core.level;

import io.ironloop.IronloopException;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.CheckpointFailedException;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Snapshotable;
import io.ironloop.core.StateSink;
import io.ironloop.core.StateSource;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.internal.EntryStream;
import io.ironloop.core.internal.LineIdentity;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots on disk, in today's checkpoint format and commit protocol: this rank's snapshot becomes a line
 * of its series ({@code rank-NNNNN}, by world rank) every {@code every}-th write, persisted in the
 * background by a {@link CheckpointEngine} (entries {@code block-<id>} and {@code loop-state}), so the
 * write overlaps the copies to partners and the application's next iterations. A disk line is complete
 * when the lines of one iteration, over every rank's series, hold every block: that is what a rollback
 * restores when the in-memory copies of a lost rank were all lost, and what a relaunched job resumes from.
 *
 * <p>A disk failure never fails the in-memory protection: it is logged and the next disk line tries again.
 */
public final class DiskLevel implements Level {
    private static final Logger LOG = LoggerFactory.getLogger(DiskLevel.class);
    private static final String SETTINGS_ENTRY = "ironloop.settings";
    private static final String LOOP_STATE_ENTRY = "loop-state";
    private static final Pattern BLOCK_ENTRY = Pattern.compile("block-(\\d+)");

    private final Store store;
    private final CheckpointEngine engine;
    private final int every;
    private final Map<Long, BlockImage> current = new HashMap<>();
    private final Set<Long> registered = new HashSet<>();
    private long writes;

    /**
     * @param store where the lines go (shared by every rank of the job)
     * @param config the engine configuration: series {@code rank-NNNNN} of this world rank, job, world size
     * @param settings the application's settings, fingerprinted into every line
     * @param every write a disk line on every {@code every}-th snapshot (1: every snapshot)
     * @param listener told when a disk line is durable (on the background writer's thread)
     */
    public DiskLevel(Store store, EngineConfig config, byte[] settings, int every, io.ironloop.core.EngineListener listener) {
        if (every < 1) {
            throw new IllegalArgumentException("the disk level's interval must be at least 1 snapshot, not " + every);
        }
        this.store = Objects.requireNonNull(store, "store");
        this.every = every;
        this.engine = CheckpointEngine.open(config, store, listener);
        engine.protect(SETTINGS_ENTRY, Scope.SETTINGS, settings.clone());
    }

    /** The name of the entry holding {@code blockId}'s image. */
    static String entryName(long blockId) {
        return blockId == Snapshot.LOOP_STATE ? LOOP_STATE_ENTRY : "block-" + blockId;
    }

    private static OptionalLong blockOf(String entry) {
        if (entry.equals(LOOP_STATE_ENTRY)) {
            return OptionalLong.of(Snapshot.LOOP_STATE);
        }
        Matcher m = BLOCK_ENTRY.matcher(entry);
        return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    @Override
    public String name() {
        return "disk";
    }

    @Override
    public void write(Chain chain) throws IOException {
        Snapshot s = chain.snapshot();
        if (writes++ % every == 0) {
            persist(s);
        }
        chain.proceed();
    }

    private void persist(Snapshot s) {
        current.clear();
        s.images().forEach(i -> current.put(i.blockId(), i));
        for (Long id : Set.copyOf(registered)) {
            if (!current.containsKey(id)) {
                engine.unprotect(entryName(id));
                registered.remove(id);
            }
        }
        for (Long id : current.keySet()) {
            if (registered.add(id)) {
                engine.protect(entryName(id), Scope.LOCAL, new ImageEntity(id));
            }
        }
        try {
            engine.checkpoint(s.iteration()); // copies the images into its staging before it returns
        } catch (CheckpointFailedException e) {
            LOG.warn("a disk line failed ({}); the in-memory copies still protect the run, the next disk line tries again",
                    e.getMessage());
        } finally {
            current.clear(); // the images are not this level's to keep: their buffers are reused once replaced
        }
    }

    /** Writes the image current at the time of the engine's snapshot (on this thread). */
    private final class ImageEntity implements Snapshotable {
        private final long id;

        ImageEntity(long id) {
            this.id = id;
        }

        @Override
        public void save(StateSink sink) {
            sink.putBytes(current.get(id).bytes());
        }

        @Override
        public void restore(StateSource source) {
            throw new UnsupportedOperationException("disk images are read with DiskLevel.read");
        }
    }

    @Override
    public void commit(long iteration) {
        // a disk line commits on its own, through its commit record
    }

    @Override
    public void abort(long iteration) {
        // a disk line written for a snapshot the handshake refused is still a consistent line of this rank
    }

    /** Waits until every disk line started so far is durable (or failed). */
    public void awaitDurable() {
        try {
            engine.awaitDurable();
        } catch (CheckpointFailedException e) {
            LOG.warn("the last disk line failed: {}", e.getMessage());
        }
    }

    /** For every iteration with committed lines under these settings, the block ids they hold over all ranks. */
    private TreeMap<Long, Map<Long, LineInfo>> lines() throws IOException {
        String fingerprint = engine.settingsFingerprint();
        StoreCatalog catalog = StoreCatalog.of(store);
        TreeMap<Long, Map<Long, LineInfo>> byIteration = new TreeMap<>();
        for (String series : catalog.series()) {
            if (StoreCatalog.rankOf(series) < 0) {
                continue;
            }
            for (LineInfo line : catalog.lines(series)) {
                if (!line.settingsFingerprint().equals(fingerprint)) {
                    continue;
                }
                try (SeekableByteChannel ch = store.openRead(line.dataFile())) {
                    CheckpointReader reader = CheckpointReader.open(ch, line.dataFile(), store::openRead);
                    LineIdentity.check(line, reader.manifest());
                    for (EntryDescriptor d : reader.manifest().entries()) {
                        OptionalLong id = blockOf(d.name());
                        if (id.isPresent()) {
                            byIteration.computeIfAbsent(line.iteration(), k -> new HashMap<>()).putIfAbsent(id.getAsLong(), line);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn("disk line {} cannot be read, skipped: {}", line.dataFile(), e.getMessage());
                }
            }
        }
        return byIteration;
    }

    /**
     * The newest iteration whose committed lines, over every rank's series, hold every block {@code 0 …
     * blockCount-1} (and the loop state) under the current settings.
     */
    public OptionalLong newestComplete(int blockCount) throws IOException {
        TreeMap<Long, Map<Long, LineInfo>> all = lines();
        for (Long it : all.descendingKeySet()) {
            Map<Long, LineInfo> held = all.get(it);
            if (held.containsKey(Snapshot.LOOP_STATE) && held.keySet().stream().filter(id -> id >= 0 && id < blockCount).count()
                    == blockCount) {
                return OptionalLong.of(it);
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public Map<Long, Long> holdings() throws IOException {
        Map<Long, Long> h = new HashMap<>();
        lines().forEach((it, held) -> held.keySet().forEach(id -> h.merge(id, it, Math::max)));
        return h;
    }

    @Override
    public Optional<BlockImage> read(long blockId, long iteration) throws IOException {
        Map<Long, LineInfo> held = lines().get(iteration);
        LineInfo line = held == null ? null : held.get(blockId);
        return line == null ? Optional.empty() : Optional.of(readFrom(line, blockId));
    }

    private BlockImage readFrom(LineInfo line, long blockId) throws IOException {
        try (SeekableByteChannel ch = store.openRead(line.dataFile())) {
            CheckpointReader reader = CheckpointReader.open(ch, line.dataFile(), store::openRead);
            LineIdentity.check(line, reader.manifest());
            EntryDescriptor d = reader.manifest().entry(entryName(blockId)).orElseThrow(
                    () -> new IronloopException(line.dataFile() + " lost its entry " + entryName(blockId)));
            return BlockImage.of(blockId, EntryStream.readNew(reader, line.dataFile(), d)); // every chunk was CRC32C-checked by the reader
        }
    }

    /** Reads the images of {@code blocks} at {@code iteration}, listing the lines once. */
    public Map<Long, BlockImage> readAll(Collection<Long> blocks, long iteration) throws IOException {
        Map<Long, LineInfo> held = lines().getOrDefault(iteration, Map.of());
        Map<Long, BlockImage> out = new HashMap<>();
        for (Long id : blocks) {
            LineInfo line = held.get(id);
            if (line == null) {
                throw new IronloopException("no disk line at iteration " + iteration + " holds block " + id + " in " + store.location());
            }
            out.put(id, readFrom(line, id));
        }
        return out;
    }

    @Override
    public double copiesInMemory() {
        return 0;
    }

    @Override
    public void close() {
        try {
            engine.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the disk level: {}", e.getMessage());
        }
    }

    /** The location of the store, for messages. */
    public String location() {
        return store.location();
    }
}
