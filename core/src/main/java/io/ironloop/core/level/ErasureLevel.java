package io.ironloop.core.level;

import io.ironloop.BufferPool;
import io.ironloop.IronloopException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Erasure-coded groups in memory (FTI's level 3, SCR's XOR): the ranks form groups of k + m, and every member
 * keeps, besides its own snapshot, m parity shares of 1/k of a snapshot each, so a group survives the loss of
 * any m members at a memory cost of ×(1 + m/k) per buffer instead of the partner level's ×2.
 *
 * <p><b>Layout.</b> A member's snapshot is one byte stream ({@link StripeLayout}: a header naming its images,
 * then the images), cut into k segments of S bytes (S: the group's longest stream over k, zero-padded). A
 * group of n = k + m members has n codewords; codeword r takes its parity shares on the members at positions
 * r, r+1, …, r+m−1 (mod n) and its data from the k others: position p gives its segment t = (p − m − r) mod n.
 * Every member holds m parity shares and encodes one codeword, its own (r = p): each member sends its segments to
 * the codewords' first parity holders, which encode all m rows chunk by chunk and forward the others to their
 * holders, a pipeline with credits so that no member holds more than a few chunks per peer beyond its shares
 * ({@link StripeEncoder}; no member encodes for the group).
 *
 * <p><b>Overlap.</b> Like the partner level, segments are sent on a thread of this level's while this thread
 * receives and encodes; then the levels after it proceed, so that a disk line of the snapshot carries this
 * member's parity ({@link #parityOf}, {@link ParityRecord}) and a relaunch can rebuild a member's lost lines.
 *
 * <p><b>Recovery.</b> {@link #rebuild} is collective over the survivors: in each group that lost at most m
 * members, the codewords the lost members had data in are dealt to the survivors in turn; each decodes its
 * codewords from k intact symbols (survivors' segments and CRC32C-checked parity shares; a damaged share is
 * reported and never used) and sends the lost segments to the lowest surviving member, which from then on holds
 * the lost members' snapshots like a partner copy ({@link #holdings}, {@link #read}), until the next commit. A group that lost more than m members, or
 * whose intact shares are too few, rebuilds nothing: the next level (disk) restores it.
 *
 * <p>Threading: as {@link Level}; the sender thread only reads the snapshot being written.
 */
public final class ErasureLevel implements Level {
    private static final Logger LOG = LoggerFactory.getLogger(ErasureLevel.class);
    /** Tags: stream lengths, then one tag per codeword of a group for its segments, then rebuild transfers. */
    static final int TAG_LENGTH = PartnerLevel.TAG_BASE + 0x100;
    static final int TAG_REBUILD = PartnerLevel.TAG_BASE + 0x101;
    static final int TAG_DECODED = PartnerLevel.TAG_BASE + 0x102;
    /** Tags of the encoding pipeline ({@link StripeEncoder}): forwarded parity shares, credits for segments and for shares. */
    static final int TAG_SHARE = PartnerLevel.TAG_BASE + 0x103;
    static final int TAG_DATA_CREDIT = PartnerLevel.TAG_BASE + 0x104;
    static final int TAG_SHARE_CREDIT = PartnerLevel.TAG_BASE + 0x105;
    static final int TAG_SEGMENT = PartnerLevel.TAG_BASE + 0x200;
    /**
     * Segments travel and are encoded in chunks of this many bytes: an encoder's chunk and its m rows stay in a core's L2
     * cache (4 MiB chunks cost this machine's encoders half again as much CPU time as 1 MiB ones; 256 KiB to 1 MiB were
     * alike under load).
     */
    static final int CHUNK = 512 << 10;

    private final Supplier<PeerLink> link;
    private final String name;
    private final int k;
    private final int m;
    private final BufferPool shares = new BufferPool(Long.MAX_VALUE);
    private final ExecutorService sender;
    private Stripe writable;
    private Stripe committed;
    private Map<Integer, Snapshot> rebuilt = Map.of();

    /**
     * XOR parity over groups of {@code k} + 1 ranks: one loss per group, memory ×(1 + 1/k) per buffer.
     *
     * @param link the current group's connections (read on every write, so a shrink rebinds it)
     * @throws IllegalArgumentException if k is not in 1..127
     */
    public static ErasureLevel xor(Supplier<PeerLink> link, int k) {
        checkGroup(k, 1);
        return new ErasureLevel(link, "xor", k, 1);
    }

    /**
     * Reed–Solomon RS(k, m) over groups of {@code k + m} ranks: m losses per group, memory ×(1 + m/k) per buffer.
     *
     * @param link the current group's connections (read on every write, so a shrink rebinds it)
     * @throws IllegalArgumentException if k or m is below 1 or k + m exceeds 128
     */
    public static ErasureLevel reedSolomon(Supplier<PeerLink> link, int k, int m) {
        checkGroup(k, m);
        return new ErasureLevel(link, "rs", k, m);
    }

    /** A group takes up to 2(k + m) − 1 ranks when the job's size is not a multiple of k + m: its code must exist. */
    private static void checkGroup(int k, int m) {
        if (k < 1 || m < 1 || k + m > 128) {
            throw new IllegalArgumentException("erasure-coded groups need k ≥ 1 and m ≥ 1 with k + m ≤ 128 (a group may grow to "
                    + "2(k + m) − 1 ranks and a code over GF(2^8) has at most 256 shards), not k = " + k + ", m = " + m);
        }
    }

    private ErasureLevel(Supplier<PeerLink> link, String name, int k, int m) {
        this.link = Objects.requireNonNull(link, "link");
        this.name = name;
        this.k = k;
        this.m = m;
        this.sender = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ironloop-" + name + "-send");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public String name() {
        return name;
    }

    /** The code of a group of {@code n} members (a smaller job than k + m keeps m, or n − 1, parity shares). */
    private ErasureCode code(int n) {
        int parity = Math.min(m, n - 1);
        return code(name, n - parity, parity);
    }

    /** The code a level named {@code name} ({@code xor} or {@code rs}) uses for k data and m parity shards. */
    static ErasureCode code(String name, int k, int m) {
        return name.equals("xor") ? ErasureCode.xor(k) : ErasureCode.cauchy(k, m);
    }

    /**
     * The groups of a job of {@code hosts.size()} ranks, each of {@code size} members or a few more (the
     * remainder is spread), failure-domain aware: when hosts are known, ranks are dealt host by host in turn
     * and the groups cut from that order, so members share a host only when there are fewer hosts than
     * members; when unknown (or all on one host), group g takes every G-th rank from g (like the pairwise rule, ranks far apart,
     * which on a cluster with consecutive ranks per node are on different nodes).
     */
    static List<int[]> groupsOf(List<String> hosts, int size) {
        int p = hosts.size();
        int count = Math.max(1, p / size);
        List<int[]> groups = new ArrayList<>();
        if (hosts.stream().distinct().count() < 2) { // unknown, or one host for all: no domain to spread over
            for (int g = 0; g < count; g++) {
                List<Integer> members = new ArrayList<>();
                for (int r = g; r < p; r += count) {
                    members.add(r);
                }
                groups.add(members.stream().mapToInt(Integer::intValue).toArray());
            }
            return groups;
        }
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < p; r++) {
            byHost.computeIfAbsent(hosts.get(r), h -> new ArrayList<>()).add(r);
        }
        int[] order = new int[p];
        int n = 0;
        for (int round = 0; n < p; round++) {
            for (List<Integer> ranks : byHost.values()) {
                if (round < ranks.size()) {
                    order[n++] = ranks.get(round);
                }
            }
        }
        for (int g = 0; g < count; g++) {
            int[] members = java.util.Arrays.copyOfRange(order, (int) ((long) g * p / count), (int) ((long) (g + 1) * p / count));
            java.util.Arrays.sort(members);
            groups.add(members);
        }
        return groups;
    }

    @Override
    public void write(Chain chain) throws IOException {
        PeerLink peers = link.get();
        Snapshot own = chain.snapshot();
        discard(writable);
        writable = null;
        if (peers.size() < 2) {
            chain.proceed();
            return;
        }
        List<String> hosts = new ArrayList<>(peers.size());
        for (int r = 0; r < peers.size(); r++) {
            hosts.add(Objects.requireNonNullElse(peers.host(r), ""));
        }
        int[] ranks = groupsOf(hosts, k + m).stream().filter(g -> contains(g, peers.rank())).findFirst().orElseThrow();
        int[] world = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            world[i] = peers.worldRank(ranks[i]);
        }
        StripeLayout mine = new StripeLayout(own);
        long[][] ids = new long[ranks.length][];
        long[] lengths = exchangeLengths(peers, ranks, mine.length(), blockIds(own), ids);
        Group group = new Group(world, ranks, code(ranks.length), lengths, ids);
        int p = group.position(peers.worldRank(peers.rank()));
        StripeEncoder encoder = new StripeEncoder(peers, group, p, CHUNK);
        Future<?> sending = sender.submit(() -> {
            encoder.sendSegments(mine);
            return null;
        });
        Stripe stripe = new Stripe(own.iteration(), group, p, own, new ByteBuffer[group.code.parityShards()],
                new int[group.code.parityShards()]);
        RuntimeException encodeFailed = null;
        try {
            for (int i = 0; i < stripe.shares.length; i++) {
                stripe.shares[i] = shares.take(group.segment);
            }
            encoder.encodeShares(stripe.shares, stripe.crcs, shares);
            writable = stripe; // before the next levels run: a disk line of this snapshot carries the parity (parityOf)
        } catch (RuntimeException e) {
            encodeFailed = e;
        }
        try {
            chain.proceed(); // the next levels write even when the encoding failed: a disk line is this rank's own, without parity
        } catch (IOException | RuntimeException | Error e) {
            PartnerLevel.awaitQuietly(sending);
            writable = null;
            discard(stripe);
            if (encodeFailed != null) {
                e.addSuppressed(encodeFailed);
            }
            throw e;
        }
        if (encodeFailed != null) {
            PartnerLevel.awaitQuietly(sending);
            discard(stripe);
            throw encodeFailed;
        }
        PartnerLevel.await(sending, "the erasure segments");
    }

    /**
     * What this member's disk line of {@code iteration} records of the group's parity, while that snapshot is being
     * written (after its shares are encoded): the group's geometry and this member's shares. The shares are this
     * level's buffers: copy them before {@link Chain#proceed()} returns.
     */
    public Optional<ParityRecord> parityOf(long iteration) {
        Stripe s = writable;
        if (s == null || s.iteration != iteration) {
            return Optional.empty();
        }
        Group g = s.group;
        ByteBuffer[] views = new ByteBuffer[s.shares.length];
        for (int i = 0; i < views.length; i++) {
            views[i] = s.shares[i].asReadOnlyBuffer().clear();
        }
        return Optional.of(new ParityRecord(name, iteration, s.position, g.code.dataShards(), g.code.parityShards(), g.segment, g.world,
                g.lengths, g.ids, s.crcs.clone(), views));
    }

    private static long[] blockIds(Snapshot s) {
        return s.images().stream().mapToLong(BlockImage::blockId).toArray();
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every member's stream length and the block ids its stream holds, in stream order, by position in the group: each
     * sends its own to the others ({@code long length, int count, long id…}).
     */
    private static long[] exchangeLengths(PeerLink peers, int[] ranks, long own, long[] ownIds, long[][] ids) {
        long[] lengths = new long[ranks.length];
        for (int r : ranks) {
            if (r != peers.rank()) {
                ByteBuffer b = ByteBuffer.allocate(Long.BYTES + Integer.BYTES + ownIds.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
                b.putLong(own).putInt(ownIds.length);
                for (long id : ownIds) {
                    b.putLong(id);
                }
                peers.send(r, TAG_LENGTH, b.flip());
            }
        }
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == peers.rank()) {
                lengths[i] = own;
                ids[i] = ownIds;
            } else {
                ByteBuffer b = peers.receive(ranks[i], TAG_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
                int at = b.position();
                lengths[i] = b.getLong(at);
                ids[i] = new long[b.getInt(at + Long.BYTES)];
                for (int j = 0; j < ids[i].length; j++) {
                    ids[i][j] = b.getLong(at + Long.BYTES + Integer.BYTES + j * Long.BYTES);
                }
                peers.recycle(b);
            }
        }
        return lengths;
    }

    /** Receives messages from {@code source} until they filled {@code bytes} bytes of {@code into} from {@code at}. */
    static void receiveInto(PeerLink peers, int source, int tag, byte[] into, int at, int bytes) {
        int filled = 0;
        while (filled < bytes) {
            ByteBuffer b = peers.receive(source, tag);
            int len = b.remaining();
            if (len > bytes - filled) {
                peers.recycle(b);
                throw new IronloopException("rank " + source + " sent " + (filled + len) + " bytes of a segment chunk of " + bytes
                        + " bytes: its stream length and this rank's disagree");
            }
            b.get(b.position(), into, at + filled, len);
            filled += len;
            peers.recycle(b);
        }
    }

    @Override
    public void commit(long iteration) {
        if (writable == null || writable.iteration != iteration) {
            return;
        }
        discard(committed);
        committed = writable;
        writable = null;
        rebuilt = Map.of();
    }

    @Override
    public void abort(long iteration) {
        discard(writable);
        writable = null;
    }

    private void discard(Stripe s) {
        if (s != null) {
            for (ByteBuffer b : s.shares) {
                shares.give(b);
            }
        }
    }

    /**
     * Rebuilds the committed snapshots of the lost members of this rank's group from the survivors, when the
     * group lost at most m members and has k intact symbols of every codeword needed ({@link ErasureRebuild}).
     * Collective over the survivors in {@code survivors}; the rebuilt snapshots are then held by the group's lowest
     * surviving member.
     */
    @Override
    public void rebuild(Set<Integer> lostWorldRanks, long iteration, PeerLink survivors) {
        rebuilt = Map.of();
        Stripe s = committed;
        if (s != null && s.iteration == iteration) {
            rebuilt = new ErasureRebuild(name, s, survivors, sender).rebuild(lostWorldRanks);
        }
    }

    @Override
    public Map<Long, Long> holdings() {
        Map<Long, Long> h = new HashMap<>();
        rebuilt.values().forEach(s -> s.images().forEach(i -> h.put(i.blockId(), s.iteration())));
        return h;
    }

    @Override
    public Optional<BlockImage> read(long blockId, long iteration) {
        for (Snapshot s : rebuilt.values()) {
            if (s.iteration() == iteration) {
                for (BlockImage i : s.images()) {
                    if (i.blockId() == blockId) {
                        return Optional.of(i.verified("the " + name + " rebuild of world rank " + s.ownerWorldRank() + "'s snapshot"));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** 2 buffers × m/k of a snapshot per rank (the parity shares of both buffers). */
    @Override
    public double copiesInMemory() {
        return 2.0 * m / k;
    }

    /** The parity shares of the committed snapshot, for tests that damage one. */
    List<ByteBuffer> committedShares() {
        return committed == null ? List.of() : List.of(committed.shares);
    }

    @Override
    public void close() {
        sender.shutdownNow();
        writable = null;
        committed = null;
        rebuilt = Map.of();
    }

    /** One group as seen by a member at one write: members by world rank and current rank, its code, the stream lengths. */
    static final class Group {
        final int[] world;
        final int[] ranks;
        final ErasureCode code;
        final long[] lengths;
        final long[][] ids;
        final int segment;

        Group(int[] world, int[] ranks, ErasureCode code, long[] lengths, long[][] ids) {
            this.world = world;
            this.ids = ids;
            this.ranks = ranks;
            this.code = code;
            this.lengths = lengths;
            long longest = java.util.Arrays.stream(lengths).max().orElse(0);
            long s = (longest + code.dataShards() - 1) / code.dataShards();
            if (s > Integer.MAX_VALUE - ErasureCode.BLOCK) {
                throw new IronloopException("a snapshot of " + longest + " bytes makes erasure segments over 2 GiB: use a larger group");
            }
            // whole blocks of the code, so the chunks (multiples of a block) and the rebuild cut the segment alike
            this.segment = (int) Math.max(ErasureCode.BLOCK, (s + ErasureCode.BLOCK - 1) / ErasureCode.BLOCK * ErasureCode.BLOCK);
        }

        int size() {
            return world.length;
        }

        int position(int worldRank) {
            for (int q = 0; q < world.length; q++) {
                if (world[q] == worldRank) {
                    return q;
                }
            }
            throw new IllegalStateException("world rank " + worldRank + " is not in its group " + java.util.Arrays.toString(world));
        }
    }

    /** What this level keeps of one snapshot: its group, this member's own snapshot and its parity shares with their CRC32C. */
    record Stripe(long iteration, Group group, int position, Snapshot own, ByteBuffer[] shares, int[] crcs) {
    }
}
