package io.ironloop.core.level;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The decoding half of an erasure-coded group, one definition for both rebuilds: online, where the survivors
 * give their symbols from memory over the network ({@link ErasureLevel#rebuild}), and on relaunch, where they
 * come from the members' disk lines ({@link LineRebuild}). The geometry is {@link ErasureLevel}'s: n members,
 * codeword r has its parity shares on positions r … r + m − 1 (mod n) and its data column t on position
 * (r + m + t) mod n, each symbol a segment of S bytes. A rebuilt stream may be longer than 2 GiB
 * ({@link RebuiltStream}); a segment, a byte array, may not (refused when the parity is encoded).
 */
final class StripeDecoder {
    private StripeDecoder() {
    }

    /** Where the symbols come from. */
    @FunctionalInterface
    interface Symbols {
        /**
         * Member {@code q}'s symbol of codeword {@code r} ({@code segment} bytes), or null when it has no intact one.
         * Called for every needed codeword in ascending order and, within one, every surviving member in
         * ascending position — also after a codeword failed, so a network protocol stays in step.
         */
        byte[] of(int q, int r);
    }

    /** Member q's shard number in codeword r: its data column t (0..k−1) or k + its parity index. */
    static int shardOf(int q, int r, int n, ErasureCode code) {
        int i = Math.floorMod(q - r, n);
        return i < code.parityShards() ? code.dataShards() + i : i - code.parityShards();
    }

    /** The codewords the members at {@code lost} have data in, ascending. */
    static Set<Integer> needed(Set<Integer> lost, int n, ErasureCode code) {
        Set<Integer> needed = new TreeSet<>();
        for (int x : lost) {
            for (int t = 0; t < code.dataShards(); t++) {
                needed.add(Math.floorMod(x - code.parityShards() - t, n));
            }
        }
        return needed;
    }

    /** Segment {@code t} of {@code stream}, zero-padded to {@code segment} bytes: a data member's symbol. */
    static byte[] dataSymbol(StripeLayout stream, int t, int segment) {
        byte[] symbol = new byte[segment];
        long from = (long) t * segment;
        int at = 0;
        for (ByteBuffer piece : stream.pieces(from, Math.min(stream.length(), from + segment), ErasureLevel.CHUNK)) {
            int len = piece.remaining();
            piece.get(symbol, at, len);
            at += len;
        }
        return symbol;
    }

    /**
     * Decodes the streams of the members at {@code lost} (whose lengths are {@code lengths}), codeword by codeword
     * from the first k intact symbols.
     *
     * @return each lost position's stream, or empty when some needed codeword has fewer than k intact symbols
     */
    static Optional<Map<Integer, RebuiltStream>> decode(ErasureCode code, int segment, long[] lengths, Set<Integer> lost,
            Symbols symbols) {
        return decode(code, segment, lengths, lost, symbols, RebuiltStream.PART);
    }

    /** {@link #decode(ErasureCode, int, long[], Set, Symbols)} into streams of {@code part}-byte parts. */
    static Optional<Map<Integer, RebuiltStream>> decode(ErasureCode code, int segment, long[] lengths, Set<Integer> lost,
            Symbols symbols, int part) {
        int n = lengths.length;
        List<Integer> alive = new ArrayList<>();
        for (int q = 0; q < n; q++) {
            if (!lost.contains(q)) {
                alive.add(q);
            }
        }
        Map<Integer, RebuiltStream> streams = streams(lengths, lost, part);
        boolean complete = true;
        for (int r : needed(lost, n, code)) {
            byte[][] shards = codeword(code, segment, n, alive, r, symbols);
            if (complete && shards != null) {
                for (int x : lost) {
                    int t = column(x, r, n, code);
                    if (t >= 0) {
                        place(streams.get(x), t, segment, shards[t]);
                    }
                }
            } else {
                complete = false;
            }
        }
        return complete ? Optional.of(streams) : Optional.empty();
    }

    /** An empty stream of its recorded length for each lost position, in parts of {@code part} bytes. */
    static Map<Integer, RebuiltStream> streams(long[] lengths, Set<Integer> lost, int part) {
        Map<Integer, RebuiltStream> streams = new HashMap<>();
        for (int x : lost) {
            streams.put(x, new RebuiltStream(lengths[x], part));
        }
        return streams;
    }

    /**
     * Codeword {@code r} decoded from the symbols of the members at {@code alive} (asked in ascending order, every one of
     * them): its shards, data columns 0..k−1 rebuilt, or null when fewer than k are intact.
     */
    static byte[][] codeword(ErasureCode code, int segment, int n, List<Integer> alive, int r, Symbols symbols) {
        byte[][] shards = new byte[n][];
        boolean[] present = new boolean[n];
        for (int q : alive) {
            byte[] symbol = symbols.of(q, r);
            if (symbol != null) {
                int shard = shardOf(q, r, n, code);
                shards[shard] = symbol;
                present[shard] = true;
            }
        }
        for (int j = 0; j < n; j++) {
            if (shards[j] == null) {
                shards[j] = new byte[segment];
            }
        }
        return code.decode(shards, present, 0, segment) ? shards : null;
    }

    /** Member x's data column in codeword r, or -1 when x holds one of r's parity shares. */
    static int column(int x, int r, int n, ErasureCode code) {
        int t = Math.floorMod(x - code.parityShards() - r, n);
        return t < code.dataShards() ? t : -1;
    }

    /** Puts segment {@code t} (its bytes within the stream's length) into {@code stream}. */
    static void place(RebuiltStream stream, int t, int segment, byte[] bytes) {
        long from = (long) t * segment;
        int len = (int) Math.max(0, Math.min(segment, stream.length() - from));
        stream.put(from, bytes, 0, len);
    }

    /**
     * The snapshot a rebuilt stream holds, checked against what was recorded when it was encoded: the stream
     * header's CRC32C and every image's.
     *
     * @throws io.ironloop.format.CorruptCheckpointException if any check fails
     */
    static Snapshot verified(RebuiltStream stream, String where) {
        Snapshot snapshot = StripeLayout.parse(stream, where);
        snapshot.images().forEach(i -> i.verified(where));
        return snapshot;
    }
}
