package io.ironloop.core.level;

import io.ironloop.IronloopException;
import io.ironloop.format.CorruptCheckpointException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Copies of snapshots in partner processes' memory (waLBerla's diskless checkpointing). On every write
 * this rank sends its snapshot to the ranks the {@link Placement} names and receives the snapshots of the
 * ranks that name it, both at once: sending runs on a background thread while the levels after this one
 * proceed (the local disk's persist overlaps the copy) and this thread receives.
 *
 * <p><b>Wire.</b> Per copy, a header message ({@code int owner world rank, long iteration, int count}, then
 * per image {@code long block id, int length, int crc32c}; little-endian), then one message per image. Images
 * are direct buffers: the group's data connection writes each from the image's memory to the socket, and
 * the receiver's connection reads it from the socket into a buffer that an earlier copy released (given back
 * at {@link #commit} and {@link #abort}), so the kernel's copies are the only ones and no fresh memory is
 * touched once the run is warm. Every image is CRC32C-checked on arrival and again before use.
 *
 * <p><b>Double buffer.</b> Received copies are kept apart until {@link #commit}; the committed copies of
 * every owner stay until the next commit, so a failure during the copy leaves the previous snapshot
 * restorable. Copies are kept by owner <em>world</em> rank, so they survive a shrink.
 */
public final class PartnerLevel implements Level {
    /** Message tags the partner level uses; applications must not use tags from {@value #TAG_BASE} up. */
    public static final int TAG_BASE = 0x7E00_0000;
    private static final int TAG_HEADER = TAG_BASE;
    private static final int TAG_IMAGE = TAG_BASE + 1;

    private final Supplier<PeerLink> link;
    private final Placement placement;
    private final ExecutorService sender;
    private final Map<Integer, Snapshot> writable = new HashMap<>();
    private Map<Integer, Snapshot> committed = Map.of();

    /**
     * @param link the current group's connections (read on every write, so a shrink rebinds it)
     * @param placement who keeps whose copies
     */
    public PartnerLevel(Supplier<PeerLink> link, Placement placement) {
        this.link = Objects.requireNonNull(link, "link");
        this.placement = Objects.requireNonNull(placement, "placement");
        this.sender = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ironloop-partner-send");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public String name() {
        return "partner";
    }

    @Override
    public void write(Chain chain) throws IOException {
        PeerLink peers = link.get();
        List<String> hosts = hosts(peers);
        int[] to = placement.partnersOf(peers.rank(), hosts);
        int[] from = placement.sourcesOf(peers.rank(), hosts);
        Snapshot own = chain.snapshot();
        writable.clear();
        Future<?> sending = sender.submit(() -> {
            for (int dest : to) {
                send(peers, dest, own);
            }
            return null;
        });
        try {
            chain.proceed();
            for (int source : from) {
                Snapshot copy = receive(peers, source);
                writable.put(copy.ownerWorldRank(), copy);
            }
        } catch (IOException | RuntimeException | Error e) {
            awaitQuietly(sending);
            throw e;
        }
        await(sending, "the partner copies");
    }

    private static List<String> hosts(PeerLink peers) {
        List<String> hosts = new ArrayList<>(peers.size());
        for (int r = 0; r < peers.size(); r++) {
            hosts.add(Objects.requireNonNullElse(peers.host(r), ""));
        }
        return hosts;
    }

    private static void send(PeerLink peers, int dest, Snapshot s) {
        ByteBuffer h = ByteBuffer.allocate(Integer.BYTES + Long.BYTES + Integer.BYTES
                + s.images().size() * (Long.BYTES + 2 * Integer.BYTES)).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(s.ownerWorldRank()).putLong(s.iteration()).putInt(s.images().size());
        for (BlockImage i : s.images()) {
            h.putLong(i.blockId()).putInt(i.length()).putInt(i.crc32c());
        }
        peers.send(dest, TAG_HEADER, h.flip());
        for (BlockImage i : s.images()) {
            peers.send(dest, TAG_IMAGE, i.bytes()); // the connection streams it from the image itself: no copy here
        }
    }

    private static Snapshot receive(PeerLink peers, int source) {
        String where = "the copy from rank " + source + " (world rank " + peers.worldRank(source) + ")";
        ByteBuffer h = peers.receive(source, TAG_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        int owner = h.getInt();
        long iteration = h.getLong();
        int count = h.getInt();
        if (count < 0 || h.remaining() != (long) count * (Long.BYTES + 2 * Integer.BYTES)) {
            throw new CorruptCheckpointException(where, 0, "header of " + h.capacity() + " bytes announces " + count + " images");
        }
        List<BlockImage> images = new ArrayList<>(count);
        long[] ids = new long[count];
        int[] lengths = new int[count];
        int[] crcs = new int[count];
        for (int k = 0; k < count; k++) {
            ids[k] = h.getLong();
            lengths[k] = h.getInt();
            crcs[k] = h.getInt();
        }
        for (int k = 0; k < count; k++) {
            ByteBuffer bytes = peers.receive(source, TAG_IMAGE); // the image itself, in a buffer the connection read it into
            if (bytes.remaining() != lengths[k]) {
                throw new CorruptCheckpointException(where, 0, "image " + k + " (block " + ids[k] + ") has " + bytes.remaining()
                        + " bytes, the header announced " + lengths[k]);
            }
            BlockImage image = new BlockImage(ids[k], bytes, crcs[k]);
            try {
                images.add(image.verified(where));
            } catch (CorruptCheckpointException e) {
                images.add(image); // released with the others
                release(peers, images);
                throw e;
            }
        }
        return new Snapshot(owner, iteration, images);
    }

    /** Waits for a level's sender thread; its failure, or an interrupt, is this thread's ({@code what}: what it sent). */
    static void await(Future<?> f, String what) throws IOException {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IronloopException("interrupted while sending " + what, e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof IOException io) {
                throw io;
            }
            throw new IronloopException("sending " + what + " failed: " + c, c);
        }
    }

    /** Waits for the sender after this thread failed, so a later write never overlaps it; its own error is dropped. */
    static void awaitQuietly(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // this thread's failure is the one reported
        }
    }

    /** Gives the buffers of {@code images} back to the connections, for the next copies to be received into. */
    private static void release(PeerLink peers, List<BlockImage> images) {
        images.forEach(i -> peers.recycle(i.buffer()));
    }

    private void release(Map<Integer, Snapshot> copies) {
        PeerLink peers = link.get();
        copies.values().forEach(s -> release(peers, s.images()));
    }

    @Override
    public void commit(long iteration) {
        Map<Integer, Snapshot> next = new HashMap<>();
        writable.forEach((owner, s) -> {
            if (s.iteration() == iteration) {
                next.put(owner, s);
            } else {
                release(link.get(), s.images());
            }
        });
        writable.clear();
        Map<Integer, Snapshot> old = committed;
        committed = next;
        release(old);
    }

    @Override
    public void abort(long iteration) {
        release(writable);
        writable.clear();
    }

    @Override
    public Map<Long, Long> holdings() {
        Map<Long, Long> h = new HashMap<>();
        committed.values().forEach(s -> s.images().forEach(i -> h.put(i.blockId(), s.iteration())));
        return h;
    }

    @Override
    public Optional<BlockImage> read(long blockId, long iteration) {
        for (Snapshot s : committed.values()) {
            if (s.iteration() != iteration) {
                continue;
            }
            for (BlockImage i : s.images()) {
                if (i.blockId() == blockId) {
                    return Optional.of(i.verified("the partner copy of world rank " + s.ownerWorldRank() + "'s snapshot"));
                }
            }
        }
        return Optional.empty();
    }

    /** The world ranks whose committed copies this rank holds. */
    public List<Integer> ownersHeld() {
        return List.copyOf(committed.keySet());
    }

    @Override
    public double copiesInMemory() {
        return 2;
    }

    @Override
    public void close() {
        sender.shutdownNow();
        writable.clear();
        committed = Map.of();
    }
}
