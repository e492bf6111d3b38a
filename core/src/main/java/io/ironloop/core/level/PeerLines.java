package io.ironloop.core.level;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.internal.CommitRecord;
import io.ironloop.core.internal.EntryStream;
import io.ironloop.core.internal.LineIdentity;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.EntryDescriptor;
import java.util.Optional;
import io.ironloop.core.internal.LineCatalog;
import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The disk lines that other ranks' stores hold and this rank's store lacks, for a restart over node-local stores (each
 * host its own {@code FT_FOLDER}, SCR's cache): what each rank's store holds is exchanged as a small catalog (each line's
 * commit record, the blocks it holds and its erasure group record), so that every rank decides from the same union of
 * lines; the files a rank then needs to read — its blocks' lines, and the lines of the erasure group that rebuilds a
 * member whose lines are gone — are fetched from a rank whose store holds them into this rank's memory, never into its
 * store, and read from there with every chunk's CRC32C checked as any line's. The runtime does the messaging
 * ({@link DiskLevel#catalog}, {@link DiskLevel#peerCatalogs}, {@link DiskLevel#filesToFetch}, {@link DiskLevel#fetched});
 * this class keeps what it learnt.
 *
 * <p>Not thread-safe: the restart's one thread.
 */
final class PeerLines {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PeerLines.class);
    private static final int MAGIC = 0x4C50_4C49; // "ILPL" read little-endian

    /**
     * One committed line as a catalog lists it.
     *
     * @param rank the world rank whose series the line belongs to
     * @param blocks the block ids it holds (its loop state is {@link Snapshot#LOOP_STATE})
     * @param parity its erasure group entry's bytes, or an empty buffer
     */
    record Listed(int rank, LineInfo line, long[] blocks, ByteBuffer parity) {
    }

    /** A line another rank's store holds: the lowest rank that listed it. */
    private record Remote(int holder, Listed listed) {
    }

    private final Map<String, Remote> remote = new TreeMap<>();
    private Store fetched = Store.inMemory();
    /** Data files of which only some entries were fetched ({@link LinePart}), and those entries. */
    private final Map<String, LinePart> parts = new TreeMap<>();
    private final Map<String, Set<String>> partEntries = new TreeMap<>();

    /**
     * The catalog of {@code lines} as it travels (little-endian): magic, count, then per line its commit record's name and
     * bytes, its block ids and its erasure group entry's bytes, each preceded by its length.
     */
    static byte[] encode(List<Listed> lines) {
        List<byte[]> commits = lines.stream().map(l -> CommitRecord.encode(l.line())).toList();
        List<byte[]> names = lines.stream().map(l -> LineCatalog.commitFile(l.line().series(), l.line().sequence())
                .getBytes(StandardCharsets.UTF_8)).toList();
        int size = 8;
        for (int i = 0; i < lines.size(); i++) {
            size += 16 + names.get(i).length + commits.get(i).length + lines.get(i).blocks().length * Long.BYTES + lines.get(i).parity().remaining();
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN).putInt(MAGIC).putInt(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            Listed l = lines.get(i);
            b.putInt(names.get(i).length).put(names.get(i)).putInt(commits.get(i).length).put(commits.get(i)).putInt(l.blocks().length);
            for (long id : l.blocks()) {
                b.putLong(id);
            }
            b.putInt(l.parity().remaining()).put(l.parity().duplicate());
        }
        return b.array();
    }

    /** Decodes a catalog {@link #encode} made on {@code from}. */
    static List<Listed> decode(byte[] catalog, String from) {
        String where = "the catalog of disk lines sent by " + from;
        try {
            ByteBuffer b = ByteBuffer.wrap(catalog).order(ByteOrder.LITTLE_ENDIAN);
            if (b.getInt() != MAGIC) {
                throw new CorruptCheckpointException(where, 0, "not a catalog of disk lines (bad magic)");
            }
            int count = b.getInt();
            List<Listed> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                byte[] name = new byte[b.getInt()];
                b.get(name);
                byte[] commit = new byte[b.getInt()];
                b.get(commit);
                LineInfo line = CommitRecord.decode(commit, new String(name, StandardCharsets.UTF_8));
                long[] blocks = new long[b.getInt()];
                for (int j = 0; j < blocks.length; j++) {
                    blocks[j] = b.getLong();
                }
                byte[] parity = new byte[b.getInt()];
                b.get(parity);
                out.add(new Listed(io.ironloop.core.StoreCatalog.rankOf(line.series()), line, blocks, ByteBuffer.wrap(parity)));
            }
            return out;
        } catch (RuntimeException e) {
            if (e instanceof CorruptCheckpointException c) {
                throw c;
            }
            throw new CorruptCheckpointException(where, 0, "truncated or malformed catalog: " + e, e);
        }
    }

    /** The committed lines of every rank's series in {@code store} under settings {@code fingerprint}: each one's blocks and group record. */
    static List<Listed> list(Store store, String fingerprint) throws IOException {
        StoreCatalog catalog = StoreCatalog.of(store);
        List<Listed> out = new java.util.ArrayList<>();
        for (String series : catalog.series()) {
            int rank = StoreCatalog.rankOf(series);
            if (rank < 0) {
                continue;
            }
            for (LineInfo line : catalog.lines(series)) {
                if (!line.settingsFingerprint().equals(fingerprint)) {
                    continue;
                }
                try (SeekableByteChannel ch = store.openRead(line.dataFile())) {
                    CheckpointReader reader = CheckpointReader.open(ch, line.dataFile(), store::openRead);
                    LineIdentity.check(line, reader.manifest());
                    List<Long> blocks = new java.util.ArrayList<>();
                    for (EntryDescriptor d : reader.manifest().entries()) {
                        DiskLevel.blockOf(d.name()).ifPresent(blocks::add);
                    }
                    ByteBuffer parity = ByteBuffer.allocate(0);
                    Optional<EntryDescriptor> group = reader.manifest().entry(ParityRecord.GROUP_ENTRY);
                    if (group.isPresent()) {
                        try {
                            parity = EntryStream.readNew(reader, line.dataFile(), group.get());
                        } catch (IOException | RuntimeException e) {
                            LOG.warn("the erasure parity of disk line {} cannot be read, not used: {}", line.dataFile(), e.getMessage());
                        }
                    }
                    out.add(new Listed(rank, line, blocks.stream().mapToLong(Long::longValue).toArray(), parity));
                } catch (IOException | RuntimeException e) {
                    LOG.warn("disk line {} cannot be read, skipped: {}", line.dataFile(), e.getMessage());
                }
            }
        }
        return out;
    }

    /** Forgets what was learnt and fetched before: the other ranks' catalogs are exchanged anew. */
    void clear() {
        remote.clear();
        fetched = Store.inMemory();
        parts.clear();
        partEntries.clear();
    }

    /** Records rank {@code holder}'s catalog; a line listed by a lower rank before stays with it. Call in rank order. */
    void learn(int holder, List<Listed> lines) {
        for (Listed l : lines) {
            remote.putIfAbsent(l.line().dataFile(), new Remote(holder, l));
        }
    }

    /** The lines other ranks hold that are not among {@code local} (data file names of this store's lines). */
    List<Listed> missingFrom(Set<String> local) {
        return remote.values().stream().filter(r -> !local.contains(r.listed().line().dataFile())).map(Remote::listed).toList();
    }

    /**
     * For each holder, the files of {@code lines} to fetch that neither this store nor the fetched ones have: by file, the
     * entries to fetch of it, or none for the whole file. A line in {@code some} needs only the entries given there (a full
     * line's part, {@link LinePart}); any other, or a differential one, is fetched whole, with the earlier files it
     * references.
     */
    Map<Integer, Map<String, Set<String>>> toFetch(Collection<LineInfo> lines, Map<String, Set<String>> some, Store local) throws IOException {
        Map<Integer, Map<String, Set<String>>> out = new TreeMap<>();
        for (LineInfo line : lines) {
            Remote r = remote.get(line.dataFile());
            if (r == null || local.listFiles(line.series()).contains(line.dataFile())) {
                continue;
            }
            Map<String, Set<String>> files = out.computeIfAbsent(r.holder(), k -> new TreeMap<>());
            Set<String> entries = line.references().isEmpty() ? some.get(line.dataFile()) : null;
            if (entries != null && partEntries.getOrDefault(line.dataFile(), Set.of()).containsAll(entries)) {
                continue; // this part was fetched already
            }
            for (String f : line.references()) {
                if (!has(fetched, f)) {
                    files.put(f, Set.of());
                }
            }
            if (!has(fetched, line.dataFile())) {
                Set<String> before = files.get(line.dataFile());
                // whole wins over a part; a part asked twice takes both sets of entries
                files.put(line.dataFile(), entries == null || (before != null && before.isEmpty()) ? Set.of()
                        : union(before == null ? Set.of() : before, entries));
            }
        }
        Map<Integer, Map<String, Set<String>>> lists = new LinkedHashMap<>();
        out.forEach((holder, files) -> {
            if (!files.isEmpty()) {
                lists.put(holder, files);
            }
        });
        return lists;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new TreeSet<>(a);
        u.addAll(b);
        return u;
    }

    private static boolean has(Store store, String name) throws IOException {
        return store.listFiles(name.substring(0, name.indexOf('/'))).contains(name);
    }

    /**
     * Keeps a file fetched from another rank, in memory; a line's data file only with the size its commit record states
     * (its chunks are checked when read).
     *
     * @throws CorruptCheckpointException when a data file arrived with another size
     */
    void put(String name, ByteBuffer bytes) throws IOException {
        Remote r = remote.get(name);
        if (r != null && r.listed().line().dataBytes() != bytes.remaining()) {
            throw new CorruptCheckpointException(name, Math.min(bytes.remaining(), r.listed().line().dataBytes()), "arrived with "
                    + bytes.remaining() + " bytes from rank " + r.holder() + " but its commit record says " + r.listed().line().dataBytes());
        }
        try (Store.PendingFile f = fetched.create(name)) {
            while (bytes.hasRemaining()) {
                f.channel().write(bytes);
            }
            f.publish();
        }
    }

    /**
     * Keeps the part of a data file ({@link LinePart}) fetched from another rank, in memory, for the entries asked for: only
     * with the size its commit record states (its chunks are checked when read).
     *
     * @throws CorruptCheckpointException when the part is malformed or its file has another size
     */
    void putPart(String name, ByteBuffer message, Set<String> entries) {
        Remote r = remote.get(name);
        LinePart part = LinePart.decode(name, message, r == null ? "another rank" : "rank " + r.holder());
        if (r != null && r.listed().line().dataBytes() != part.size()) {
            throw new CorruptCheckpointException(name, 0, "its part from rank " + r.holder() + " is of a file of " + part.size()
                    + " bytes but its commit record says " + r.listed().line().dataBytes());
        }
        parts.put(name, part);
        partEntries.put(name, Set.copyOf(entries));
    }

    /** Where {@code line} is read: the fetched copy (or part) when it came from another rank, else {@code local}. */
    Store storeOf(LineInfo line, Store local) throws IOException {
        LinePart part = parts.get(line.dataFile());
        if (part != null && !has(fetched, line.dataFile())) {
            return new PartStore(line.dataFile(), part, fetched);
        }
        return has(fetched, line.dataFile()) ? fetched : local;
    }

    /** A whole file of {@code store}, for a rank that asked for it. */
    static ByteBuffer readWhole(Store store, String name) throws IOException {
        try (SeekableByteChannel ch = store.openRead(name)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 8) {
                throw new IOException(name + " is " + size + " bytes: too large to send to another rank in one message");
            }
            ByteBuffer b = ByteBuffer.allocate((int) size);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // until full or end of file
            }
            return b.flip();
        }
    }

    /**
     * A request as one message: the number of files, then per file its name and the number of its entries asked for
     * (0: the whole file) and their names, each name as its length and UTF-8 bytes.
     */
    static byte[] encodeRequest(Map<String, Set<String>> files) {
        List<String> names = new ArrayList<>();
        files.forEach((file, entries) -> {
            names.add(file);
            names.add(Integer.toString(entries.size()));
            names.addAll(entries);
        });
        List<byte[]> bytes = names.stream().map(n -> n.getBytes(StandardCharsets.UTF_8)).toList();
        ByteBuffer b = ByteBuffer.allocate(4 + bytes.stream().mapToInt(x -> 4 + x.length).sum()).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(files.size());
        bytes.forEach(x -> b.putInt(x.length).put(x));
        return b.array();
    }

    /** The request {@link #encodeRequest} encoded, in its order. */
    static Map<String, Set<String>> decodeRequest(byte[] message) {
        ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
        int n = b.getInt();
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String file = string(b);
            int entries = Integer.parseInt(string(b));
            Set<String> names = new TreeSet<>();
            for (int e = 0; e < entries; e++) {
                names.add(string(b));
            }
            out.put(file, names);
        }
        return out;
    }

    private static String string(ByteBuffer b) {
        byte[] x = new byte[b.getInt()];
        b.get(x);
        return new String(x, StandardCharsets.UTF_8);
    }

    /** One fetched part, read as a store of that one file (read-only); other names are read from {@code whole}. */
    private record PartStore(String name, LinePart part, Store whole) implements Store {
        @Override
        public String location() {
            return "memory (some entries of " + name + ", fetched from another rank)";
        }

        @Override
        public List<String> listSeries() throws IOException {
            return List.of(name.substring(0, name.indexOf('/')));
        }

        @Override
        public List<String> listFiles(String series) throws IOException {
            return name.startsWith(series + "/") ? List.of(name) : whole.listFiles(series);
        }

        @Override
        public long size(String file) throws IOException {
            return file.equals(name) ? part.size() : whole.size(file);
        }

        @Override
        public SeekableByteChannel openRead(String file) throws IOException {
            return file.equals(name) ? part.channel() : whole.openRead(file);
        }

        @Override
        public PendingFile create(String file) {
            throw new UnsupportedOperationException("a fetched part is read-only");
        }

        @Override
        public void delete(String file) {
            throw new UnsupportedOperationException("a fetched part is read-only");
        }

        @Override
        public AutoCloseable lock(String series) {
            throw new UnsupportedOperationException("a fetched part is read-only");
        }

        @Override
        public int removeTemporaries(String series) {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
