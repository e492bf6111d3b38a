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
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots on disk, in today's checkpoint format and commit protocol: this rank's snapshot becomes a line
 * of its series ({@code rank-NNNNN}, by world rank) every {@code every}-th write, persisted in the
 * background by a {@link CheckpointEngine} (entries {@code block-<id>} and {@code loop-state}), so the
 * write overlaps the copies to partners and the application's next iterations. A disk line is complete
 * when the lines of one iteration, over every rank's series, hold every block — or when the erasure parity the
 * lines carry ({@link ParityRecord}) can rebuild the blocks of the ranks whose lines are missing ({@link LineRebuild}):
 * that is what a rollback restores when the in-memory copies of a lost rank were all lost, and what a relaunched job
 * resumes from.
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
    private final Function<Long, Optional<ParityRecord>> parity;
    private final PeerLines peers = new PeerLines();
    private ParityRecord currentParity;
    private boolean parityRegistered;
    private long writes;

    /**
     * @param store where the lines go (shared by every rank of the job)
     * @param config the engine configuration: series {@code rank-NNNNN} of this world rank, job, world size
     * @param settings the application's settings, fingerprinted into every line
     * @param every write a disk line on every {@code every}-th snapshot (1: every snapshot)
     * @param listener told when a disk line is durable (on the background writer's thread)
     */
    public DiskLevel(Store store, EngineConfig config, byte[] settings, int every, io.ironloop.core.EngineListener listener) {
        this(store, config, settings, every, listener, iteration -> Optional.empty());
    }

    /**
     * A disk level whose lines also carry this rank's erasure parity, so a relaunch rebuilds a member whose lines are
     * missing or damaged from the others' ({@link ParityRecord}).
     *
     * @param parity the parity of the snapshot of an iteration being written ({@link ErasureLevel#parityOf}), or empty
     */
    public DiskLevel(Store store, EngineConfig config, byte[] settings, int every, io.ironloop.core.EngineListener listener,
            Function<Long, Optional<ParityRecord>> parity) {
        this.parity = Objects.requireNonNull(parity, "parity");
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

    static OptionalLong blockOf(String entry) {
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
        currentParity = parity.apply(s.iteration()).orElse(null);
        if ((currentParity != null) != parityRegistered) { // a line claims parity exactly when it carries it
            parityRegistered = currentParity != null;
            if (parityRegistered) {
                engine.protect(ParityRecord.GROUP_ENTRY, Scope.LOCAL, new ParityEntity(false));
                engine.protect(ParityRecord.SHARES_ENTRY, Scope.LOCAL, new ParityEntity(true));
            } else {
                engine.unprotect(ParityRecord.GROUP_ENTRY);
                engine.unprotect(ParityRecord.SHARES_ENTRY);
            }
        }
        try {
            engine.checkpoint(s.iteration()); // copies the images into its staging before it returns
        } catch (CheckpointFailedException e) {
            LOG.warn("a disk line failed ({}); the in-memory copies still protect the run, the next disk line tries again",
                    e.getMessage());
        } finally {
            current.clear(); // the images are not this level's to keep: their buffers are reused once replaced
            currentParity = null;
        }
    }

    /** Writes the parity of the snapshot being written: the group record, or the shares one after the other. */
    private final class ParityEntity implements Snapshotable {
        private final boolean shares;

        ParityEntity(boolean shares) {
            this.shares = shares;
        }

        @Override
        public void save(StateSink sink) {
            if (shares) {
                for (ByteBuffer share : currentParity.shares()) {
                    sink.putBytes(share);
                }
            } else {
                sink.putBytes(ByteBuffer.wrap(currentParity.encode()));
            }
        }

        @Override
        public void restore(StateSource source) {
            throw new UnsupportedOperationException("parity is read by the rebuild on relaunch");
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

    /**
     * For every iteration with committed lines under these settings, what they hold over all ranks: this store's lines
     * and those the other ranks' catalogs list ({@link #peerCatalogs}).
     */
    private TreeMap<Long, IterationLines> lines() throws IOException {
        List<PeerLines.Listed> local = localLines();
        Set<String> names = new HashSet<>();
        local.forEach(l -> names.add(l.line().dataFile()));
        List<PeerLines.Listed> all = new java.util.ArrayList<>(local);
        all.addAll(peers.missingFrom(names));
        TreeMap<Long, IterationLines> byIteration = new TreeMap<>();
        for (PeerLines.Listed l : all) {
            IterationLines held = byIteration.computeIfAbsent(l.line().iteration(), k -> new IterationLines());
            held.ranks().put(l.rank(), l.line());
            for (long id : l.blocks()) {
                held.blocks().putIfAbsent(id, l.line());
            }
            if (l.parity().hasRemaining()) {
                try {
                    held.parity().put(l.rank(), ParityRecord.decode(l.parity().duplicate(), l.line().dataFile()));
                } catch (RuntimeException e) {
                    LOG.warn("the erasure parity of disk line {} cannot be read, not used: {}", l.line().dataFile(), e.getMessage());
                }
            }
        }
        return byIteration;
    }

    /** This store's committed lines of every rank's series under these settings. */
    private List<PeerLines.Listed> localLines() throws IOException {
        return PeerLines.list(store, engine.settingsFingerprint());
    }

    /**
     * What this rank's store holds, for the other ranks of a restart over node-local stores: each committed line's commit
     * record, blocks and erasure group record (a few bytes per block), to give to {@link #peerCatalogs} on every rank;
     * an empty array when the store holds no line under these settings.
     *
     * @throws IOException if the store cannot be listed
     */
    public byte[] catalog() throws IOException {
        List<PeerLines.Listed> local = localLines();
        return local.isEmpty() ? new byte[0] : PeerLines.encode(local);
    }

    /**
     * Learns what the other ranks' stores hold, replacing what was learnt and fetched before: from then on the lines this
     * store lacks count as held (by the lowest rank that lists each), {@link #newestComplete} and {@link #readAll}
     * decide over the union, and {@link #requests} names what to fetch before {@link #readAll}.
     *
     * @param catalogs every rank's {@link #catalog} (or an empty array), by rank of the current group
     * @param self this rank's index among them (its own catalog is skipped)
     * @throws io.ironloop.format.CorruptCheckpointException when a catalog does not decode
     */
    public void peerCatalogs(byte[][] catalogs, int self) {
        peers.clear();
        for (int r = 0; r < catalogs.length; r++) {
            if (r != self && catalogs[r].length > 0) { // empty: that rank could not list its store
                peers.learn(r, PeerLines.decode(catalogs[r], "rank " + r));
            }
        }
    }

    /**
     * The files to ask other ranks for before {@link #readAll}{@code (blocks, iteration)}, as one request per rank that
     * holds some (see {@link #requested}): the lines holding {@code blocks} that this store lacks, and the lines of the
     * erasure groups that rebuild a member whose line is missing; with {@code wholeGroups}, also the lines of every
     * group holding one of {@code blocks} (after a read failed: a damaged line is rebuilt from its group).
     *
     * @return by rank of the current group, the encoded request; empty when this store has everything
     */
    public Map<Integer, byte[]> requests(Collection<Long> blocks, long iteration, boolean wholeGroups) throws IOException {
        IterationLines held = lines().get(iteration);
        if (held == null) {
            return Map.of();
        }
        Set<LineInfo> needed = new HashSet<>();
        Map<String, Set<String>> some = new HashMap<>(); // the lines read only for this rank's blocks: those entries
        Set<String> whole = new HashSet<>(); // the lines a rebuild reads: images and shares
        Map<Integer, ParityRecord> rebuildable = held.rebuildable();
        for (Long id : blocks) {
            LineInfo line = held.blocks().get(id);
            ParityRecord group = null;
            if (line != null) {
                needed.add(line);
                some.computeIfAbsent(line.dataFile(), f -> new java.util.TreeSet<>()).add(entryName(id));
                group = wholeGroups ? held.parity().get(StoreCatalog.rankOf(line.series())) : null;
            } else {
                group = rebuildable.values().stream().filter(g -> g.members().stream().anyMatch(
                        w -> !held.ranks().containsKey(w) && Arrays.stream(g.blocksOf(w)).anyMatch(b -> b == id))).findFirst().orElse(null);
            }
            if (group != null) {
                group.members().stream().map(held.ranks()::get).filter(Objects::nonNull).forEach(l -> {
                    needed.add(l);
                    whole.add(l.dataFile());
                });
            }
        }
        some.keySet().removeAll(whole);
        Map<Integer, byte[]> out = new TreeMap<>();
        peers.toFetch(needed, some, store).forEach((holder, files) -> out.put(holder, PeerLines.encodeRequest(files)));
        return out;
    }

    /** A request that asks for nothing, as {@link #requests} encodes requests. */
    public static byte[] emptyRequest() {
        return PeerLines.encodeRequest(Map.of());
    }

    /**
     * What a request from {@link #requests} asks this rank for: by file name, the entries wanted (a part of the file,
     * {@link #file(String, Set)}), or none for the whole file.
     */
    public static Map<String, Set<String>> requested(byte[] request) {
        return PeerLines.decodeRequest(request);
    }

    /**
     * A file of this store, to send to the rank that requested it: with {@code entries}, only the header, manifest, trailer
     * and those entries' chunks when the line is a full one (a part, which {@link #fetched} tells from a whole file by its
     * magic), else the whole file.
     */
    public ByteBuffer file(String name, Set<String> entries) throws IOException {
        if (!entries.isEmpty()) {
            Optional<ByteBuffer> part = LinePart.read(store, name, entries);
            if (part.isPresent()) {
                return part.get();
            }
        }
        return PeerLines.readWhole(store, name);
    }

    /**
     * Keeps a file (or, when {@code entries} were asked for and a part came, that part) another rank sent for a
     * {@link #requests} of this one, in memory until the next {@link #peerCatalogs}.
     *
     * @return whether a part was kept (not the whole file)
     */
    public boolean fetched(String name, Set<String> entries, ByteBuffer bytes) throws IOException {
        if (!entries.isEmpty() && LinePart.isPart(bytes)) {
            peers.putPart(name, bytes, entries);
            return true;
        }
        peers.put(name, bytes);
        return false;
    }

    /** Forgets the other ranks' catalogs and the files fetched from them (their memory is freed). */
    public void forgetPeers() {
        peers.clear();
    }

    /**
     * The newest iteration whose committed lines, over every rank's series, hold every block {@code 0 …
     * blockCount-1} (and the loop state) under the current settings, or can rebuild the missing ones from the parity
     * recorded beside them.
     */
    public OptionalLong newestComplete(int blockCount) throws IOException {
        return newestComplete(blockCount, Long.MAX_VALUE);
    }

    /** {@link #newestComplete(int)} among the iterations before {@code below}. */
    public OptionalLong newestComplete(int blockCount, long below) throws IOException {
        TreeMap<Long, IterationLines> all = lines();
        for (Long it : all.headMap(below, false).descendingKeySet()) {
            Set<Long> held = all.get(it).restorable();
            if (held.contains(Snapshot.LOOP_STATE) && held.stream().filter(id -> id >= 0 && id < blockCount).count() == blockCount) {
                return OptionalLong.of(it);
            }
        }
        return OptionalLong.empty();
    }

    /**
     * For each iteration after {@code since} that has committed lines under these settings but cannot be restored (not
     * complete, not rebuildable), why: for the log line of a restart that resumed from an older one.
     */
    public Map<Long, String> unrestorableAfter(int blockCount, long since) throws IOException {
        Map<Long, String> out = new TreeMap<>();
        lines().tailMap(since, false).forEach((it, held) -> {
            Set<Long> h = held.restorable();
            if (!h.contains(Snapshot.LOOP_STATE) || h.stream().filter(id -> id >= 0 && id < blockCount).count() != blockCount) {
                out.put(it, held.gap(blockCount));
            }
        });
        return out;
    }

    @Override
    public Map<Long, Long> holdings() throws IOException {
        Map<Long, Long> h = new HashMap<>();
        lines().forEach((it, held) -> held.restorable().forEach(id -> h.merge(id, it, Math::max)));
        return h;
    }

    @Override
    public Optional<BlockImage> read(long blockId, long iteration) throws IOException {
        IterationLines held = lines().get(iteration);
        if (held == null || !held.restorable().contains(blockId)) {
            return Optional.empty();
        }
        return Optional.of(readAll(held, List.of(blockId), iteration).get(blockId));
    }

    /** Entry {@code entry} of {@code line}, every chunk checked; empty when the line has no such entry. */
    private Optional<ByteBuffer> readEntry(LineInfo line, String entry) throws IOException {
        return readEntry(peers.storeOf(line, store), line, entry);
    }

    static Optional<ByteBuffer> readEntry(Store store, LineInfo line, String entry) throws IOException {
        try (SeekableByteChannel ch = store.openRead(line.dataFile())) {
            CheckpointReader reader = CheckpointReader.open(ch, line.dataFile(), store::openRead);
            LineIdentity.check(line, reader.manifest());
            Optional<EntryDescriptor> d = reader.manifest().entry(entry);
            // every chunk is CRC32C-checked by the reader
            return d.isEmpty() ? Optional.empty() : Optional.of(EntryStream.readNew(reader, line.dataFile(), d.get()));
        }
    }

    /**
     * Reads the images of {@code blocks} at {@code iteration}, listing the lines once. A block whose line is missing
     * or damaged is rebuilt, when the line's group can, from the other members' lines and parity (logged).
     *
     * @throws IronloopException naming the block and why, when neither its line nor a rebuild gives it
     */
    public Map<Long, BlockImage> readAll(Collection<Long> blocks, long iteration) throws IOException {
        return readAll(lines().getOrDefault(iteration, new IterationLines()), blocks, iteration);
    }

    private Map<Long, BlockImage> readAll(IterationLines held, Collection<Long> blocks, long iteration) throws IOException {
        Map<Long, BlockImage> out = new HashMap<>();
        Set<Integer> damaged = new HashSet<>();
        Map<Integer, Snapshot> rebuilt = new HashMap<>();
        for (Long id : blocks) {
            LineInfo line = held.blocks().get(id);
            String why = "no disk line at iteration " + iteration + " holds block " + id + " in " + store.location();
            if (line != null) {
                try {
                    out.put(id, BlockImage.of(id, readEntry(line, entryName(id)).orElseThrow(
                            () -> new IronloopException(line.dataFile() + " lost its entry " + entryName(id)))));
                    continue;
                } catch (IronloopException | IOException e) {
                    // damaged, lost an entry, or gone since it was listed: its group's parity may still rebuild it
                    why = "disk line " + line.dataFile() + " in " + store.location() + " cannot be read: " + e.getMessage();
                    damaged.add(StoreCatalog.rankOf(line.series()));
                }
            }
            BlockImage image = rebuiltImage(held, id, damaged, rebuilt, why);
            out.put(id, image);
        }
        return out;
    }

    /** Block {@code id} from the rebuilt snapshot of the rank whose line held it; rebuilds that rank's snapshot first. */
    private BlockImage rebuiltImage(IterationLines held, long id, Set<Integer> damaged, Map<Integer, Snapshot> rebuilt, String why) {
        Optional<BlockImage> done = imageIn(rebuilt, id);
        if (done.isPresent()) {
            return done.get();
        }
        ParityRecord group = held.parity().values().stream().filter(g -> g.members().stream()
                .anyMatch(w -> (!held.ranks().containsKey(w) || damaged.contains(w))
                        && Arrays.stream(g.blocksOf(w)).anyMatch(b -> b == id)))
                .findFirst().orElseThrow(() -> new IronloopException(why + ", and no erasure parity beside the other lines covers it"));
        Map<Integer, LineInfo> intact = new HashMap<>(held.ranks());
        damaged.forEach(intact::remove);
        Map<Integer, Snapshot> out;
        try {
            out = new LineRebuild(group, intact, this::readEntry, store.location()).rebuild(damaged);
        } catch (IronloopException e) {
            throw new IronloopException(why + "; " + e.getMessage(), e);
        }
        LOG.warn("{}: rebuilt world ranks {}' line(s) of iteration {} from the {} parity of group {} (the other members' lines)", why,
                out.keySet(), group.iteration(), group.code(), group.members());
        rebuilt.putAll(out);
        return imageIn(rebuilt, id).orElseThrow(() -> new IronloopException(why + ", and the rebuilt lines do not hold it"));
    }

    private static Optional<BlockImage> imageIn(Map<Integer, Snapshot> snapshots, long id) {
        return snapshots.values().stream().flatMap(s -> s.images().stream()).filter(i -> i.blockId() == id).findFirst();
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
