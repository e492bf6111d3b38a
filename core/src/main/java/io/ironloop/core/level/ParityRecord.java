package io.ironloop.core.level;

import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * What one member of an erasure-coded group writes into its disk line beside its images, so that a relaunch
 * can rebuild a member whose line is gone ({@link LineRebuild}): the group's geometry at that snapshot (entry
 * {@value #GROUP_ENTRY}) and this member's m parity shares (entry {@value #SHARES_ENTRY}). Both are entries of
 * the line itself, so the line's commit record covers them and the format's chunk CRC32Cs check them; the
 * group entry also records each share's CRC32C as computed when it was encoded. Layout: {@code docs/format.md},
 * "Erasure parity in a line".
 *
 * <p>Immutable, except that the shares are views of the level's buffers while the line is being written.
 */
public final class ParityRecord {
    /** The entry holding the group's geometry and the shares' CRC32Cs. */
    public static final String GROUP_ENTRY = "erasure-group";
    /** The entry holding this member's parity shares, share i at byte i × segment. */
    public static final String SHARES_ENTRY = "erasure-shares";
    static final int MAGIC = 0x4750_4C49; // "ILPG" read little-endian
    static final int VERSION = 1;
    private static final List<String> CODES = List.of("xor", "rs");
    private static final int MAX_MEMBERS = 256;

    private final String code;
    private final long iteration;
    private final int position;
    private final int dataShards;
    private final int parityShards;
    private final int segment;
    private final int[] world;
    private final long[] lengths;
    private final long[][] ids;
    private final int[] shareCrcs;
    private final ByteBuffer[] shares;

    ParityRecord(String code, long iteration, int position, int dataShards, int parityShards, int segment, int[] world,
            long[] lengths, long[][] ids, int[] shareCrcs, ByteBuffer[] shares) {
        this.code = code;
        this.iteration = iteration;
        this.position = position;
        this.dataShards = dataShards;
        this.parityShards = parityShards;
        this.segment = segment;
        this.world = world.clone();
        this.lengths = lengths.clone();
        this.ids = ids.clone();
        this.shareCrcs = shareCrcs.clone();
        this.shares = shares;
    }

    /** {@code xor} or {@code rs}. */
    public String code() {
        return code;
    }

    /** The iteration of the snapshot the parity was encoded from. */
    public long iteration() {
        return iteration;
    }

    /** The group's members by position, as world ranks. */
    public List<Integer> members() {
        return Arrays.stream(world).boxed().toList();
    }

    /** How many members' lines the group can lose and still rebuild (its parity shares per codeword). */
    public int parityShards() {
        return parityShards;
    }

    /** The block ids world rank {@code worldRank}'s snapshot held (its loop state is {@link Snapshot#LOOP_STATE}). */
    public long[] blocksOf(int worldRank) {
        return ids[positionOf(worldRank)].clone();
    }

    /**
     * The erasure group record of a committed line, every chunk checked; empty when the line carries no parity.
     *
     * @throws io.ironloop.format.CorruptCheckpointException if the line or its record is damaged
     * @throws IOException if the store fails
     */
    public static Optional<ParityRecord> read(Store store, LineInfo line) throws IOException {
        Optional<ByteBuffer> bytes = DiskLevel.readEntry(store, line, GROUP_ENTRY);
        return bytes.isEmpty() ? Optional.empty() : Optional.of(decode(bytes.get(), line.dataFile()));
    }

    /**
     * The ranks whose lines of one iteration are missing and that the parity recorded in the others can rebuild: for
     * each group that lost at most its parity shares' worth of members' lines, its lost members, with the group.
     *
     * @param records the group records of the iteration's lines (any number per group)
     * @param withLines the world ranks that have a line of the iteration
     */
    public static Map<Integer, ParityRecord> rebuildable(Collection<ParityRecord> records, Set<Integer> withLines) {
        Map<Integer, ParityRecord> out = new TreeMap<>();
        for (ParityRecord group : records) {
            List<Integer> lost = group.members().stream().filter(w -> !withLines.contains(w)).toList();
            if (lost.size() <= group.parityShards()) {
                lost.forEach(w -> out.put(w, group));
            }
        }
        return out;
    }

    int position() {
        return position;
    }

    int segment() {
        return segment;
    }

    int worldRank(int q) {
        return world[q];
    }

    long[] lengths() {
        return lengths.clone();
    }

    long[] ids(int q) {
        return ids[q];
    }

    int shareCrc(int i) {
        return shareCrcs[i];
    }

    ByteBuffer[] shares() {
        return shares;
    }

    int positionOf(int worldRank) {
        for (int q = 0; q < world.length; q++) {
            if (world[q] == worldRank) {
                return q;
            }
        }
        return -1;
    }

    ErasureCode erasureCode() {
        return ErasureLevel.code(code, dataShards, parityShards);
    }

    /** Whether {@code other} (another member's record) describes the same group at the same snapshot. */
    boolean sameGroup(ParityRecord other) {
        return code.equals(other.code) && iteration == other.iteration && dataShards == other.dataShards
                && parityShards == other.parityShards && segment == other.segment && Arrays.equals(world, other.world)
                && Arrays.equals(lengths, other.lengths) && Arrays.deepEquals(ids, other.ids);
    }

    /** The bytes of entry {@value #GROUP_ENTRY}. */
    byte[] encode() {
        int size = Integer.BYTES * 3 + Long.BYTES + Integer.BYTES * 5 + Integer.BYTES * parityShards + Integer.BYTES;
        for (long[] i : ids) {
            size += Integer.BYTES + Long.BYTES + Integer.BYTES + i.length * Long.BYTES;
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putInt(CODES.indexOf(code)).putLong(iteration);
        b.putInt(world.length).putInt(position).putInt(dataShards).putInt(parityShards).putInt(segment);
        for (int q = 0; q < world.length; q++) {
            b.putInt(world[q]).putLong(lengths[q]).putInt(ids[q].length);
            for (long id : ids[q]) {
                b.putLong(id);
            }
        }
        for (int c : shareCrcs) {
            b.putInt(c);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        return b.array();
    }

    /**
     * Reads entry {@value #GROUP_ENTRY}.
     *
     * @param where the file and entry, for messages
     * @throws CorruptCheckpointException if the bytes are not a valid group record
     */
    static ParityRecord decode(ByteBuffer bytes, String where) {
        ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        try {
            int end = b.limit() - Integer.BYTES;
            if (end < b.position()) {
                throw new CorruptCheckpointException(where, 0, "the erasure group record is truncated: " + b.remaining() + " bytes");
            }
            CRC32C crc = new CRC32C();
            crc.update(b.duplicate().limit(end));
            if (b.getInt(end) != (int) crc.getValue()) {
                throw new CorruptCheckpointException(where, 0, String.format("the erasure group record fails its CRC32C: stored %08x, "
                        + "computed %08x", b.getInt(end), (int) crc.getValue()));
            }
            if (b.getInt() != MAGIC || b.getInt() != VERSION) {
                throw new CorruptCheckpointException(where, 0, "not an erasure group record of version " + VERSION);
            }
            int codeIndex = b.getInt();
            long iteration = b.getLong();
            int n = b.getInt();
            int position = b.getInt();
            int k = b.getInt();
            int m = b.getInt();
            int segment = b.getInt();
            if (codeIndex < 0 || codeIndex >= CODES.size() || n < 2 || n > MAX_MEMBERS || k < 1 || m < 1 || k + m != n
                    || position < 0 || position >= n || segment < ErasureCode.BLOCK || segment % ErasureCode.BLOCK != 0) {
                throw new CorruptCheckpointException(where, 0, "the erasure group record's geometry is impossible: code " + codeIndex
                        + ", " + n + " members, k " + k + ", m " + m + ", position " + position + ", segment " + segment);
            }
            int[] world = new int[n];
            long[] lengths = new long[n];
            long[][] ids = new long[n][];
            for (int q = 0; q < n; q++) {
                world[q] = b.getInt();
                lengths[q] = b.getLong();
                int count = b.getInt();
                if (lengths[q] < 0 || lengths[q] > (long) k * segment || count < 0 || count > b.remaining() / Long.BYTES) {
                    throw new CorruptCheckpointException(where, 0, "member " + q + " of the erasure group record has a stream of "
                            + lengths[q] + " bytes and " + count + " blocks");
                }
                ids[q] = new long[count];
                for (int j = 0; j < count; j++) {
                    ids[q][j] = b.getLong();
                }
            }
            int[] crcs = new int[m];
            for (int i = 0; i < m; i++) {
                crcs[i] = b.getInt();
            }
            if (b.position() != end) {
                throw new CorruptCheckpointException(where, 0, "the erasure group record has " + (end - b.position()) + " bytes too many");
            }
            return new ParityRecord(CODES.get(codeIndex), iteration, position, k, m, segment, world, lengths, ids, crcs,
                    new ByteBuffer[0]);
        } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new CorruptCheckpointException(where, 0, "the erasure group record is truncated", e);
        }
    }
}
