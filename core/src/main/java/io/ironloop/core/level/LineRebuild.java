package io.ironloop.core.level;

import io.ironloop.IronloopException;
import io.ironloop.core.LineInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relaunch half of the erasure-coded levels: rebuilds the snapshots of members of a group whose disk lines
 * are missing or damaged from the surviving members' lines of the same iteration — their images (the data
 * segments) and the parity shares each recorded beside them ({@link ParityRecord}) — and checks every rebuilt
 * snapshot against the CRC32Cs recorded when it was encoded. A parity share that fails its CRC32C is reported and
 * never used. Decoding is {@link StripeDecoder}'s, as online.
 *
 * <p>Memory: the surviving members' snapshots at once (n − 1 of them), plus one codeword (n segments) at a time.
 * Not thread-safe; one per rebuild.
 */
final class LineRebuild {
    private static final Logger LOG = LoggerFactory.getLogger(LineRebuild.class);

    /** Reads one entry of one line, every chunk checked; empty when the line has no such entry. */
    @FunctionalInterface
    interface Entries {
        Optional<ByteBuffer> read(LineInfo line, String entry) throws IOException;
    }

    private final ParityRecord group;
    private final Map<Integer, LineInfo> lines;
    private final Entries entries;
    private final String location;
    private final Map<Integer, Optional<StripeLayout>> streams = new HashMap<>();
    private final Map<Integer, Optional<ByteBuffer[]>> shares = new HashMap<>();
    private final List<String> problems = new ArrayList<>();

    /**
     * @param group any surviving member's record of the group
     * @param lines the committed lines of the group's iteration, by world rank (the lost members' absent)
     * @param location the store's location, for messages
     */
    LineRebuild(ParityRecord group, Map<Integer, LineInfo> lines, Entries entries, String location) {
        this.group = group;
        this.lines = lines;
        this.entries = entries;
        this.location = location;
    }

    /**
     * Rebuilds the snapshots of the members whose lines are absent or listed in {@code damaged}.
     *
     * @return the rebuilt snapshots by world rank, each verified
     * @throws IronloopException naming why, when more members are lost than the code covers, when some codeword has
     *     fewer than k intact symbols, or when a rebuilt snapshot fails its checks
     */
    Map<Integer, Snapshot> rebuild(Set<Integer> damaged) {
        int n = group.members().size();
        ErasureCode code = group.erasureCode();
        Set<Integer> lost = new TreeSet<>();
        for (int q = 0; q < n; q++) {
            if (!lines.containsKey(group.worldRank(q)) || damaged.contains(group.worldRank(q))) {
                lost.add(q);
            }
        }
        String what = group.code() + " group " + group.members() + " at iteration " + group.iteration() + " in " + location;
        if (lost.size() > code.parityShards()) {
            throw new IronloopException("the " + what + " lost the lines of world ranks " + worldOf(lost) + ", more than its "
                    + code.parityShards() + " parity share(s) per codeword cover");
        }
        Optional<Map<Integer, RebuiltStream>> decoded = StripeDecoder.decode(code, group.segment(), group.lengths(), lost, this::symbol);
        if (decoded.isEmpty()) {
            throw new IronloopException("the " + what + " has fewer than " + code.dataShards() + " intact symbols of some codeword"
                    + " to rebuild world ranks " + worldOf(lost) + ": " + problems);
        }
        Map<Integer, Snapshot> out = new HashMap<>();
        for (int x : lost) {
            String where = "the rebuild of world rank " + group.worldRank(x) + "'s line of iteration " + group.iteration() + " from the "
                    + what;
            Snapshot s = StripeDecoder.verified(decoded.get().get(x), where);
            long[] ids = s.images().stream().mapToLong(BlockImage::blockId).toArray();
            if (s.ownerWorldRank() != group.worldRank(x) || s.iteration() != group.iteration() || !Arrays.equals(ids, group.ids(x))) {
                throw new IronloopException(where + " gave world rank " + s.ownerWorldRank() + "'s snapshot of iteration " + s.iteration()
                        + " with blocks " + Arrays.toString(ids) + ", not the one the group recorded");
            }
            out.put(group.worldRank(x), s);
        }
        if (!problems.isEmpty()) {
            LOG.warn("{}: rebuilt without {}", what, problems);
        }
        return out;
    }

    private List<Integer> worldOf(Set<Integer> positions) {
        return positions.stream().map(group::worldRank).toList();
    }

    /** Member q's symbol of codeword r from its line: a data segment of its images, or a parity share if intact. */
    private byte[] symbol(int q, int r) {
        int n = group.members().size();
        ErasureCode code = group.erasureCode();
        int shard = StripeDecoder.shardOf(q, r, n, code);
        if (shard < code.dataShards()) {
            return streamOf(q).map(s -> StripeDecoder.dataSymbol(s, shard, group.segment())).orElse(null);
        }
        int i = shard - code.dataShards();
        return sharesOf(q).filter(all -> all[i] != null).map(all -> {
            byte[] symbol = new byte[group.segment()];
            all[i].get(0, symbol);
            return symbol;
        }).orElse(null);
    }

    /** Member q's snapshot as the stream it encoded: its images in the recorded order, read from its line. */
    private Optional<StripeLayout> streamOf(int q) {
        return streams.computeIfAbsent(q, x -> {
            LineInfo line = lines.get(group.worldRank(x));
            try {
                List<BlockImage> images = new ArrayList<>();
                for (long id : group.ids(x)) {
                    ByteBuffer bytes = entries.read(line, DiskLevel.entryName(id)).orElseThrow(
                            () -> new IronloopException("it has no entry " + DiskLevel.entryName(id)));
                    images.add(BlockImage.of(id, bytes));
                }
                StripeLayout s = new StripeLayout(new Snapshot(group.worldRank(x), group.iteration(), images));
                if (s.length() != group.lengths()[x]) {
                    throw new IronloopException("its images make a stream of " + s.length() + " bytes, the group recorded "
                            + group.lengths()[x]);
                }
                return Optional.of(s);
            } catch (IOException | RuntimeException e) {
                problems.add("world rank " + group.worldRank(x) + "'s data (" + line.dataFile() + "): " + e.getMessage());
                return Optional.empty();
            }
        });
    }

    /** Member q's parity shares from its line, each checked against the CRC32C recorded when it was encoded (a damaged one: null). */
    private Optional<ByteBuffer[]> sharesOf(int q) {
        return shares.computeIfAbsent(q, x -> {
            LineInfo line = lines.get(group.worldRank(x));
            try {
                ParityRecord own = ParityRecord.decode(entries.read(line, ParityRecord.GROUP_ENTRY).orElseThrow(
                        () -> new IronloopException("it has no parity")), line.dataFile());
                if (!own.sameGroup(group) || own.position() != x) {
                    throw new IronloopException("its parity is of another group or snapshot");
                }
                ByteBuffer all = entries.read(line, ParityRecord.SHARES_ENTRY).orElseThrow(
                        () -> new IronloopException("it has no entry " + ParityRecord.SHARES_ENTRY));
                int m = group.parityShards();
                if (all.remaining() != (long) m * group.segment()) {
                    throw new IronloopException("its parity shares are " + all.remaining() + " bytes, not " + m + " × " + group.segment());
                }
                ByteBuffer[] out = new ByteBuffer[m];
                for (int i = 0; i < m; i++) {
                    out[i] = all.slice(all.position() + i * group.segment(), group.segment());
                    int crc = BlockImage.crc(out[i].duplicate());
                    if (crc != own.shareCrc(i)) {
                        problems.add(String.format("world rank %d's parity share %d (%s) fails its CRC32C (recorded %08x, computed %08x):"
                                + " not used", group.worldRank(x), i, line.dataFile(), own.shareCrc(i), crc));
                        out[i] = null;
                    }
                }
                return Optional.of(out);
            } catch (IOException | RuntimeException e) {
                problems.add("world rank " + group.worldRank(x) + "'s parity (" + line.dataFile() + "): " + e.getMessage());
                return Optional.empty();
            }
        });
    }
}
