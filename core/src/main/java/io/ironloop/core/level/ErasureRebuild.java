package io.ironloop.core.level;

import io.ironloop.core.level.ErasureLevel.Group;
import io.ironloop.core.level.ErasureLevel.Stripe;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One online rebuild of an {@link ErasureLevel}'s group (see {@link ErasureLevel#rebuild}), on one survivor: the
 * codewords the lost members have data in are dealt to the survivors in turn; every survivor sends each decoder its
 * symbol of that codeword (its data segment, or its parity share if the share passes its CRC32C; a damaged one is
 * reported and sent as missing, never used), each decoder decodes its codewords ({@link StripeDecoder}) and sends the
 * lost segments to the holder (the lowest survivor), which reassembles and verifies the lost members' snapshots.
 * Every send runs on the level's sender thread, so the calling thread only receives and decodes.
 *
 * <p>Not thread-safe: one per rebuild, on the level's thread.
 */
final class ErasureRebuild {
    private static final Logger LOG = LoggerFactory.getLogger(ErasureRebuild.class);

    private final String name;
    private final Stripe stripe;
    private final PeerLink survivors;
    private final ExecutorService sender;

    /**
     * @param name the level's name, for logs
     * @param stripe the committed stripe of the iteration to rebuild
     * @param survivors the shrunk group's connections
     * @param sender the level's sender thread
     */
    ErasureRebuild(String name, Stripe stripe, PeerLink survivors, ExecutorService sender) {
        this.name = name;
        this.stripe = stripe;
        this.survivors = survivors;
        this.sender = sender;
    }

    /**
     * Rebuilds the stripe's lost members' snapshots. Collective over the survivors.
     *
     * @param lostWorldRanks the ranks lost (members missing from the survivors count as lost too)
     * @return on the holder, the rebuilt snapshots by world rank; elsewhere, or when nothing could be rebuilt, none
     */
    Map<Integer, Snapshot> rebuild(Set<Integer> lostWorldRanks) {
        Stripe s = stripe;
        long iteration = s.iteration();
        Group group = s.group();
        int n = group.size();
        ErasureCode code = group.code;
        Map<Integer, Integer> rankOfWorld = new HashMap<>();
        for (int r = 0; r < survivors.size(); r++) {
            rankOfWorld.put(survivors.worldRank(r), r);
        }
        Set<Integer> lost = new TreeSet<>(); // lost now, or in an earlier recovery since this stripe was written
        for (int q = 0; q < n; q++) {
            if (lostWorldRanks.contains(group.world[q]) || !rankOfWorld.containsKey(group.world[q])) {
                lost.add(q);
            }
        }
        if (lost.isEmpty()) {
            return Map.of();
        }
        List<Integer> alive = new ArrayList<>();
        for (int q = 0; q < n; q++) {
            if (!lost.contains(q)) {
                alive.add(q);
            }
        }
        if (lost.size() > code.parityShards()) {
            LOG.warn("level '{}': group {} lost {} members, more than its {} parity shares cover: the next level restores them", name,
                    java.util.Arrays.toString(group.world), lost.size(), code.parityShards());
            return Map.of();
        }
        int holder = alive.get(0);
        List<Integer> needed = List.copyOf(StripeDecoder.needed(lost, n, code));
        StripeLayout mine = new StripeLayout(s.own());
        // the decoding is spread: codeword needed[i] is decoded by alive[i mod |alive|], which sends the lost members'
        // segments of it to the holder; every send runs on the sender thread, so this thread only receives and decodes
        List<Future<?>> sends = new ArrayList<>();
        for (int i = 0; i < needed.size(); i++) {
            int r = needed.get(i);
            int decoder = alive.get(i % alive.size());
            if (decoder != s.position()) {
                int to = rankOfWorld.get(group.world[decoder]);
                sends.add(sender.submit(() -> sendSymbol(survivors, to, s, mine, r)));
            }
        }
        Map<Integer, RebuiltStream> streams = s.position() == holder ? StripeDecoder.streams(group.lengths, lost, RebuiltStream.PART) : null;
        boolean complete;
        try {
            complete = decodeMine(survivors, s, mine, needed, alive, lost, holder, rankOfWorld, streams, sends);
        } catch (RuntimeException | Error e) {
            sends.forEach(PartnerLevel::awaitQuietly); // a later round's transfers never overlap these
            throw e;
        }
        for (Future<?> f : sends) {
            try {
                PartnerLevel.await(f, "the rebuild's transfers");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        if (streams == null) {
            return Map.of();
        }
        if (!complete) {
            LOG.warn("level '{}': group {} has fewer than {} intact symbols of some codeword: the next level restores world ranks {}",
                    name, java.util.Arrays.toString(group.world), code.dataShards(), worldOf(group, lost));
            return Map.of();
        }
        Map<Integer, Snapshot> out = new HashMap<>();
        for (int x : lost) {
            String where = "the " + name + " rebuild of world rank " + group.world[x] + "'s snapshot of iteration " + iteration;
            try {
                out.put(group.world[x], StripeDecoder.verified(streams.get(x), where));
            } catch (RuntimeException e) {
                LOG.warn("level '{}': {} failed ({}): the next level restores it", name, where, e.getMessage());
            }
        }
        LOG.info("level '{}': rebuilt the snapshots of world ranks {} at iteration {}", name, out.keySet(), iteration);
        return out;
    }

    /**
     * This survivor's part of a rebuild: decodes the codewords it is the decoder of (keeping the lost members' segments
     * when it is the holder, else queueing them for the holder on the sender thread) and, on the holder, receives the
     * segments the other decoders send. Returns whether every lost segment arrived (meaningful on the holder).
     */
    private boolean decodeMine(PeerLink survivors, Stripe s, StripeLayout mine, List<Integer> needed, List<Integer> alive,
            Set<Integer> lost, int holder, Map<Integer, Integer> rankOfWorld, Map<Integer, RebuiltStream> streams, List<Future<?>> sends) {
        Group group = s.group();
        int n = group.size();
        ErasureCode code = group.code;
        boolean complete = true;
        for (int i = 0; i < needed.size(); i++) {
            int r = needed.get(i);
            if (alive.get(i % alive.size()) != s.position()) {
                continue;
            }
            byte[][] shards = StripeDecoder.codeword(code, group.segment, n, alive, r, (q, c) -> q == s.position() ? localSymbol(s, mine, c)
                    : receiveSymbol(survivors, rankOfWorld.get(group.world[q]), group.segment));
            for (int x : lost) {
                int t = StripeDecoder.column(x, r, n, code);
                if (t < 0) {
                    continue;
                }
                byte[] segment = shards == null ? null : shards[t];
                if (streams != null) {
                    complete &= segment != null;
                    if (segment != null) {
                        StripeDecoder.place(streams.get(x), t, group.segment, segment);
                    }
                } else {
                    int to = rankOfWorld.get(group.world[holder]);
                    sends.add(sender.submit(() -> sendSegment(survivors, to, segment)));
                }
            }
        }
        if (streams != null) { // the holder: the segments the others decoded, codeword by codeword
            for (int i = 0; i < needed.size(); i++) {
                int r = needed.get(i);
                int decoder = alive.get(i % alive.size());
                for (int x : lost) {
                    int t = StripeDecoder.column(x, r, n, code);
                    if (decoder != s.position() && t >= 0) {
                        byte[] segment = receiveSymbol(survivors, rankOfWorld.get(group.world[decoder]), group.segment, ErasureLevel.TAG_DECODED);
                        complete &= segment != null;
                        if (segment != null) {
                            StripeDecoder.place(streams.get(x), t, group.segment, segment);
                        }
                    }
                }
            }
        }
        return complete;
    }

    private static List<Integer> worldOf(Group group, Set<Integer> positions) {
        return positions.stream().map(q -> group.world[q]).toList();
    }

    /** This member's symbol of codeword r: its data segment, or its parity share if intact; null when damaged. */
    private byte[] localSymbol(Stripe s, StripeLayout mine, int r) {
        int n = s.group().size();
        int shard = StripeDecoder.shardOf(s.position(), r, n, s.group().code);
        if (shard < s.group().code.dataShards()) {
            return StripeDecoder.dataSymbol(mine, shard, s.group().segment);
        }
        ByteBuffer share = s.shares()[shard - s.group().code.dataShards()];
        int crc = BlockImage.crc(share.duplicate().clear());
        if (crc != s.crcs()[shard - s.group().code.dataShards()]) {
            LOG.warn("level '{}': this rank's parity share of codeword {} fails its CRC32C (stored {}, computed {}): not used", name, r,
                    Integer.toHexString(s.crcs()[shard - s.group().code.dataShards()]), Integer.toHexString(crc));
            return null;
        }
        byte[] symbol = new byte[s.group().segment];
        share.get(0, symbol);
        return symbol;
    }

    /** Sends this member's symbol of codeword r to its decoder: a status (1 intact, 0 not), then its bytes. */
    private void sendSymbol(PeerLink peers, int to, Stripe s, StripeLayout mine, int r) {
        send(peers, to, ErasureLevel.TAG_REBUILD, localSymbol(s, mine, r));
    }

    /** Sends a decoded segment of a lost member to the holder (null: its codeword could not be decoded). */
    private static void sendSegment(PeerLink peers, int to, byte[] segment) {
        send(peers, to, ErasureLevel.TAG_DECODED, segment);
    }

    private static void send(PeerLink peers, int to, int tag, byte[] symbol) {
        peers.send(to, tag, ByteBuffer.wrap(new byte[] {(byte) (symbol == null ? 0 : 1)}));
        if (symbol != null) {
            for (int off = 0; off < symbol.length; off += ErasureLevel.CHUNK) {
                peers.send(to, tag, ByteBuffer.wrap(symbol, off, Math.min(ErasureLevel.CHUNK, symbol.length - off)));
            }
        }
    }

    private static byte[] receiveSymbol(PeerLink peers, int from, int segment) {
        return receiveSymbol(peers, from, segment, ErasureLevel.TAG_REBUILD);
    }

    private static byte[] receiveSymbol(PeerLink peers, int from, int segment, int tag) {
        ByteBuffer status = peers.receive(from, tag);
        boolean intact = status.get(status.position()) == 1;
        peers.recycle(status);
        if (!intact) {
            return null;
        }
        byte[] symbol = new byte[segment];
        for (int off = 0; off < segment; off += ErasureLevel.CHUNK) {
            ErasureLevel.receiveInto(peers, from, tag, symbol, off, Math.min(ErasureLevel.CHUNK, segment - off));
        }
        return symbol;
    }
}
