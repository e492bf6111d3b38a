package io.ironloop.runtime.recovery;

import io.ironloop.IronloopException;
import io.ironloop.core.level.BlockImage;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.core.level.DiskLevel;
import io.ironloop.core.level.Level;
import io.ironloop.core.level.LevelChain;
import io.ironloop.core.level.NoIntactImageException;
import io.ironloop.core.level.PartnerLevel;
import io.ironloop.core.level.Snapshot;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ShrinkResult;
import io.ironloop.runtime.blocks.Balancer;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.RecoveryFailedException;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvent.RecoverySource;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.internal.blocks.BlockSnapshots;
import io.ironloop.runtime.internal.blocks.Domain;
import io.ironloop.runtime.internal.blocks.GroupPeers;
import io.ironloop.runtime.internal.state.ByteArraySource;
import io.ironloop.runtime.internal.blocks.Ownership;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery inside the running job (waLBerla's Algorithms 3 and 4, generalised): the failure surfaced as a
 * {@link ProcessFailedException} in the main loop on every survivor, which made the handshake with "failed"
 * ({@link BlockSnapshots#abandon}, or the snapshot's own handshake said so); then, in one round:
 * <ol>
 *   <li><b>shrink</b> the group to the survivors;</li>
 *   <li><b>map</b> the blocks to ranks anew: spares adopt whole lost ranks, the balancer spreads the rest;</li>
 *   <li><b>restore</b> every block's committed snapshot on its new owner — from its own memory when it
 *       holds a copy, else sent by the lowest surviving holder — and roll every survivor back to the
 *       committed iteration; when some block has no copy left in memory, every survivor rolls back to the
 *       newest complete line on disk instead, or, with none, aborts naming the lost ranks;</li>
 *   <li><b>agree</b> that every survivor finished; a failure during the round starts another round.</li>
 * </ol>
 * Every step is decided from data every survivor has (the agreement, the shrink, an allgather of who holds
 * what), so every survivor takes the same path. The images themselves are never changed, so a round can be
 * redone after another failure.
 */
public final class OnlineRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineRecovery.class);
    private static final int TAG = PartnerLevel.TAG_BASE - 0x0100_0000 + 1;
    private static final int MAX_DISK_RETRIES = 3;
    /** A round's closing agreement (the lowest wins): redo it after another failure, redo it from disk after damage, done. */
    private static final long ROUND_FAILED = 0;
    private static final long MEMORY_DAMAGED = 1;
    private static final long ROUND_DONE = 2;

    private final LevelChain memory;
    private final DiskLevel disk;
    private final Balancer balancer;
    private final BlockSnapshots.LoopState loopState;
    private final RuntimeEvents events;
    private boolean startedFresh = true;

    /**
     * @param memory the in-memory levels (own memory, partner copies)
     * @param disk the disk level, or null when the loop writes no disk lines
     */
    public OnlineRecovery(LevelChain memory, DiskLevel disk, Balancer balancer, BlockSnapshots.LoopState loopState,
            RuntimeEvents events) {
        this.memory = memory;
        this.disk = disk;
        this.balancer = balancer;
        this.loopState = loopState;
        this.events = events;
    }

    /**
     * Recovers after a failure met in the main loop.
     *
     * @param committed the iteration of the committed snapshot (the same on every survivor), or -1 when the loss
     *     came before the first snapshot: a fresh start starts again from the factory, a resumed one from disk
     * @param detectedNanos when this rank met the failure ({@link System#nanoTime()})
     * @return the iteration the loop resumes at
     * @throws RecoveryFailedException when the lost blocks are nowhere (on every survivor)
     */
    public <B extends Block> long recover(Domain<B> domain, long committed, long detectedNanos) {
        Set<Integer> lost = new TreeSet<>();
        int diskRetries = 0;
        long diskBelow = Long.MAX_VALUE; // a disk line this rank could not read: the next round agrees on an older one
        ProcessGroup current = domain.group();
        Ownership before = domain.ownership();
        boolean memoryDamaged = false;
        while (true) {
            long shrinkStart = System.nanoTime();
            ShrinkResult shrunk = current.shrink();
            ProcessGroup g = shrunk.group();
            for (int r = 0; r < current.size(); r++) {
                if (shrunk.newRank(r) < 0) {
                    lost.add(current.worldRank(r));
                }
            }
            long shrinkEnd = System.nanoTime();
            events.publish(new RuntimeEvent.GroupShrunk(lost, current.size(), g.size(), Duration.ofNanos(shrinkEnd - shrinkStart)));
            LOG.info("world rank {}: world ranks {} lost; the group shrank from {} to {} ranks", g.worldRank(g.rank()), lost,
                    current.size(), g.size());
            Round<B> round = null;
            long ok = ROUND_DONE;
            try {
                round = round(domain, g, before, lost, committed, memoryDamaged, diskBelow);
            } catch (ProcessFailedException e) {
                LOG.warn("world rank {}: another failure during recovery ({}); starting another round", g.worldRank(g.rank()),
                        e.getMessage());
                ok = ROUND_FAILED;
            } catch (CorruptCheckpointException | NoIntactImageException e) {
                LOG.warn("world rank {}: an in-memory copy is damaged ({}); every survivor rolls back to the disk line instead",
                        g.worldRank(g.rank()), e.getMessage());
                ok = MEMORY_DAMAGED;
            } catch (DiskLineGone e) {
                diskBelow = Math.min(diskBelow, e.iteration);
                if (++diskRetries > MAX_DISK_RETRIES) {
                    throw new RecoveryFailedException(lost, "cannot recover the loss of world ranks " + lost + ": " + e.getMessage()
                            + " (" + MAX_DISK_RETRIES + " times)");
                }
                LOG.warn("world rank {}: {}; agreeing on a disk line again", g.worldRank(g.rank()), e.getMessage());
                ok = ROUND_FAILED;
            }
            long verdict = g.agree(ok);
            memoryDamaged |= verdict == MEMORY_DAMAGED;
            if (verdict == ROUND_DONE && round != null) {
                domain.rebind(g, round.ownership().next());
                domain.replaceBlocks(round.blocks());
                events.publish(new RuntimeEvent.RecoveredOnline(lost, round.iteration(), round.source(),
                        round.ownership().sparesUsed(), Duration.ofNanos(shrinkStart - detectedNanos),
                        Duration.ofNanos(shrinkEnd - shrinkStart), round.restore(), round.rebalance()));
                return round.iteration();
            }
            current = g;
        }
    }

    /**
     * The restart path of a block loop: when the disk lines hold a complete line (every block and the loop state at
     * one iteration, under these settings, or rebuildable from the erasure parity recorded in the lines; over every
     * rank's store, whose catalogs the ranks exchange first, so that node-local stores serve too), every rank
     * agrees on the newest one all of them see, restores its blocks from it and resumes there; when some rank cannot
     * restore that line (a damaged line, a rebuild that fails its checks), every rank falls back to the next older one,
     * and the lines skipped are logged with the reason. Collective.
     *
     * @return the iteration restored, or empty when there is no complete line (the loop starts fresh)
     */
    public <B extends Block> OptionalLong resumeFromDisk(Domain<B> domain) {
        if (disk != null) {
            PeerDiskLines.shareCatalogs(domain.group(), disk); // a rank's store may hold lines the others' lack (node-local disks)
        }
        try {
            return resume(domain);
        } finally {
            if (disk != null) {
                disk.forgetPeers();
            }
        }
    }

    private <B extends Block> OptionalLong resume(Domain<B> domain) {
        ProcessGroup g = domain.group();
        int world = domain.worldRank();
        List<String> skipped = new ArrayList<>();
        long below = Long.MAX_VALUE;
        while (true) {
            OptionalLong line = OptionalLong.empty();
            int held = 0;
            if (disk != null) {
                try {
                    line = disk.newestComplete(domain.layout().blockCount(), below);
                    held = (int) disk.holdings().keySet().stream().filter(id -> id >= 0).count();
                } catch (IOException e) {
                    LOG.warn("the disk lines in {} cannot be listed ({}); starting fresh", disk.location(), e.getMessage());
                }
            }
            long agreed = g.agree(line.orElse(-1));
            if (g.rank() == 0 && skipped.isEmpty() && held > 0) {
                skipped.addAll(unrestorable(domain.layout().blockCount(), agreed));
            }
            if (agreed < 0) {
                if (held > 0 && g.rank() == 0) {
                    // the in-memory copies died with the previous job; the parity in the lines rebuilds up to m lost ranks per group
                    LOG.warn("{} holds lines of {} of the {} blocks but no {}iteration with all of them and the loop state, nor one whose "
                            + "missing lines the erasure parity recorded beside the others can rebuild{}: starting fresh. To survive a "
                            + "lost checkpoint folder, set SHARED_FOLDER or S3_URI, or MEMORY_SCHEME xor or rs (parity in the lines).",
                            disk.location(), held, domain.layout().blockCount(), skipped.isEmpty() ? "" : "older ",
                            skipped.isEmpty() ? "" : " (skipped " + skipped + ")");
                }
                return OptionalLong.empty();
            }
            List<Integer> mine = List.copyOf(domain.blocks().keySet());
            Map<Long, BlockImage> images = null;
            String failure = null;
            try {
                images = fromDisk(g, mine, agreed);
            } catch (DiskLineGone e) {
                failure = e.getMessage();
                LOG.warn("world rank {}: {}; every rank falls back to an older line", world, failure);
            }
            long failed = g.agree(failure == null ? Long.MAX_VALUE : world); // the lowest world rank that could not restore it
            if (failed == Long.MAX_VALUE) {
                startedFresh = false;
                restoreAll(domain.blocks(), images, agreed);
                LOG.info("world rank {}: resumed from the disk line of iteration {} in {}{}", world, agreed, disk.location(),
                        skipped.isEmpty() ? "" : "; skipped " + skipped);
                return OptionalLong.of(agreed);
            }
            skipped.add("iteration " + agreed + ": world rank " + failed + " could not restore it"
                    + (failed == world ? " (" + failure + ")" : " (its log says why)"));
            below = agreed;
        }
    }

    /** The iterations after {@code agreed} that have lines but cannot be restored, each with why (for rank 0's log line). */
    private List<String> unrestorable(int blockCount, long agreed) {
        try {
            List<String> out = new ArrayList<>();
            disk.unrestorableAfter(blockCount, agreed).forEach((it, why) -> out.add("iteration " + it + ": " + why));
            return out;
        } catch (IOException e) {
            return List.of();
        }
    }

    private record Round<B>(Ownership.Change ownership, Map<Integer, B> blocks, long iteration, RecoverySource source,
            Duration restore, Duration rebalance) {
    }

    private <B extends Block> Round<B> round(Domain<B> domain, ProcessGroup g, Ownership before, Set<Integer> lost, long committed,
            boolean memoryDamaged, long diskBelow) {
        long start = System.nanoTime();
        Ownership.Change change = before.afterLoss(lost, balancer);
        Ownership next = change.next();
        int world = g.worldRank(g.rank());
        List<Integer> mine = next.blocksOf(world);
        Map<Integer, Integer> rankOfWorld = new HashMap<>();
        for (int r = 0; r < g.size(); r++) {
            rankOfWorld.put(g.worldRank(r), r);
        }
        long mapped = System.nanoTime();

        if (committed >= 0) {
            memory.rebuild(lost, committed, new GroupPeers(g, Map.of())); // erasure-coded levels decode what the lost ranks held
        }
        Map<Long, List<Integer>> holders = holders(g, committed);
        List<Integer> nowhere = new ArrayList<>();
        for (int b = 0; b < next.blockCount(); b++) {
            if (!holders.containsKey((long) b)) {
                nowhere.add(b);
            }
        }
        Map<Long, BlockImage> images;
        long iteration;
        RecoverySource source;
        if (committed < 0 && startedFresh) {
            // lost before the first snapshot of a fresh start: every block starts again from the factory
            images = null;
            iteration = 0;
            source = RecoverySource.MEMORY;
        } else if (nowhere.isEmpty() && !memoryDamaged) {
            images = fromMemory(g, next, rankOfWorld, holders, committed, mine);
            iteration = committed;
            source = RecoverySource.MEMORY;
        } else {
            String memoryReason = memoryDamaged ? "an in-memory copy of the committed snapshot was damaged"
                    : "blocks " + abbreviate(nowhere) + " have no surviving copy in memory (world ranks " + lost
                            + " and every holder of their copies are lost)";
            LOG.warn("world rank {}: {}: rolling back to the newest complete line on disk", world, memoryReason);
            iteration = agreeOnDiskLine(g, next.blockCount(), lost, memoryReason, diskBelow);
            try {
                images = fromDisk(g, mine, iteration);
            } finally {
                disk.forgetPeers();
            }
            source = RecoverySource.DISK;
        }
        long restoredAt = System.nanoTime();
        Map<Integer, B> blocks = new TreeMap<>();
        for (int id : mine) {
            B b = images == null ? null : domain.blocks().get(id);
            if (b == null) {
                b = domain.create(id);
            }
            blocks.put(id, b);
        }
        long created = System.nanoTime();
        if (images == null) {
            return new Round<>(change, blocks, iteration, source, Duration.ofNanos(created - mapped), Duration.ofNanos(mapped - start));
        }
        restoreAll(blocks, images, iteration);
        long end = System.nanoTime();
        Duration rebalance = Duration.ofNanos((mapped - start) + (created - restoredAt));
        Duration restore = Duration.ofNanos((restoredAt - mapped) + (end - created));
        return new Round<>(change, blocks, iteration, source, restore, rebalance);
    }

    /**
     * Restores the loop state, then {@code blocks}, from {@code images}, all of {@code iteration}: the loop's globals
     * first, so that blocks may take their shape from them (a skeleton's parts their boxes).
     */
    private <B extends Block> void restoreAll(Map<Integer, B> blocks, Map<Long, BlockImage> images, long iteration) {
        long resumed = loopState.restore(images.get(Snapshot.LOOP_STATE));
        if (resumed != iteration) {
            throw new IronloopException("the loop state restored is of iteration " + resumed + ", the blocks of " + iteration);
        }
        for (Map.Entry<Integer, B> e : blocks.entrySet()) {
            e.getValue().restore(new ByteArraySource("block " + e.getKey() + "'s snapshot of iteration " + iteration,
                    images.get((long) e.getKey()).bytes()));
        }
    }

    /** For each block id, the ranks of {@code g} that hold its committed image in memory, ascending. */
    private Map<Long, List<Integer>> holders(ProcessGroup g, long committed) {
        Set<Long> held = new HashSet<>();
        for (Level l : memory.levels()) {
            try {
                l.holdings().forEach((id, it) -> {
                    if (it == committed) {
                        held.add(id);
                    }
                });
            } catch (IOException e) {
                LOG.warn("level '{}' cannot list what it holds: {}", l.name(), e.getMessage());
            }
        }
        held.remove(Snapshot.LOOP_STATE);
        ByteBuffer b = ByteBuffer.allocate(held.size() * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        held.stream().sorted().forEach(b::putLong);
        byte[][] all = g.allgather(b.array());
        Map<Long, List<Integer>> holders = new HashMap<>();
        for (int r = 0; r < all.length; r++) {
            ByteBuffer p = ByteBuffer.wrap(all[r]).order(ByteOrder.LITTLE_ENDIAN);
            while (p.hasRemaining()) {
                holders.computeIfAbsent(p.getLong(), k -> new ArrayList<>()).add(r);
            }
        }
        return holders;
    }

    /**
     * The images of this rank's blocks: from its own levels when it holds them, else from the lowest holder.
     * Every holder sends, in block-id order, what it is the lowest holder of to owners that hold nothing.
     */
    private Map<Long, BlockImage> fromMemory(ProcessGroup g, Ownership next, Map<Integer, Integer> rankOfWorld,
            Map<Long, List<Integer>> holders, long committed, List<Integer> mine) {
        int me = g.rank();
        Map<Long, BlockImage> images = new HashMap<>();
        Map<Integer, Integer> expectFrom = new TreeMap<>();
        for (int b = 0; b < next.blockCount(); b++) {
            int owner = rankOfWorld.get(next.ownerOf(b));
            List<Integer> h = holders.get((long) b);
            if (h.contains(owner)) {
                continue;
            }
            int from = h.get(0);
            if (from == me) {
                BlockImage image = memory.read(b, committed).image();
                g.send(owner, TAG, header(image));
                g.send(owner, TAG, image.bytes()); // bulk: from the image's memory to the socket
            }
            if (owner == me) {
                expectFrom.put(b, from);
            }
        }
        for (int b : mine) {
            if (!expectFrom.containsKey(b)) {
                images.put((long) b, memory.read(b, committed).image());
            }
        }
        for (Map.Entry<Integer, Integer> e : expectFrom.entrySet()) {
            BlockImage image = received(g, e.getValue(), "block " + e.getKey() + " sent by rank " + e.getValue());
            if (image.blockId() != e.getKey()) {
                throw new IronloopException("rank " + e.getValue() + " sent block " + image.blockId() + " where block " + e.getKey()
                        + " was expected");
            }
            images.put(image.blockId(), image);
        }
        images.put(Snapshot.LOOP_STATE, memory.read(Snapshot.LOOP_STATE, committed).image());
        return images;
    }

    private long agreeOnDiskLine(ProcessGroup g, int blockCount, Set<Integer> lost, String memoryReason, long below) {
        OptionalLong line = OptionalLong.empty();
        String why = "no disk level is configured (DISK_EVERY is never)";
        if (disk != null) {
            // every survivor's background writer is idle before anyone lists the lines, so that no line a rank
            // chooses is replaced (and its older one deleted by retention) while another still reads
            disk.awaitDurable();
            g.agree(0);
            PeerDiskLines.shareCatalogs(g, disk); // a rank's store may hold lines the others' lack (node-local disks)
            try {
                line = disk.newestComplete(blockCount, below);
                why = "no complete line in " + disk.location() + (below == Long.MAX_VALUE ? "" : " before iteration " + below);
            } catch (IOException e) {
                why = "the lines in " + disk.location() + " cannot be read: " + e.getMessage();
            }
        }
        long agreed = g.agree(line.orElse(-1));
        if (agreed < 0) {
            String message = "cannot recover the loss of world ranks " + lost + ": " + memoryReason + " and " + why
                    + (line.isPresent() ? " on every rank" : "");
            events.publish(new RuntimeEvent.RecoveryImpossible(lost, message));
            throw new RecoveryFailedException(lost, message);
        }
        return agreed;
    }

    /**
     * This rank's images of {@code iteration} from the disk lines, wherever they are: lines its store lacks are fetched
     * from the ranks whose stores hold them (node-local stores), in two rounds every rank makes — the lines it reads and
     * the erasure groups that rebuild the missing ones, then, for a rank whose read failed, the whole groups of its blocks
     * (a damaged line is rebuilt from its group). Collective.
     */
    private Map<Long, BlockImage> fromDisk(ProcessGroup g, List<Integer> mine, long iteration) {
        List<Long> ids = new ArrayList<>();
        ids.add(Snapshot.LOOP_STATE);
        mine.forEach(b -> ids.add((long) b));
        PeerDiskLines.fetch(g, disk, ids, iteration, false);
        Exception failure = null;
        Map<Long, BlockImage> images = null;
        try {
            images = disk.readAll(ids, iteration);
        } catch (IOException | IronloopException e) {
            failure = e;
        }
        PeerDiskLines.fetch(g, disk, failure == null ? List.of() : ids, iteration, true);
        if (failure != null) {
            try {
                images = disk.readAll(ids, iteration);
            } catch (IOException | IronloopException e) {
                throw new DiskLineGone(iteration, "the disk line of iteration " + iteration + " in " + disk.location()
                        + " cannot be read here (" + e.getMessage() + ")", e);
            }
        }
        return images;
    }

    /**
     * The agreed disk line cannot be read on this rank (damaged beyond what parity rebuilds, or gone since it was listed):
     * the round is redone, this rank proposing only older lines.
     */
    private static final class DiskLineGone extends IronloopException {
        final long iteration;

        DiskLineGone(long iteration, String message, Throwable cause) {
            super(message, cause);
            this.iteration = iteration;
        }
    }

    /** A transferred image travels as a header ({@code long block id, int crc32c}) and then its bytes. */
    private static byte[] header(BlockImage image) {
        return ByteBuffer.allocate(Long.BYTES + Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(image.blockId())
                .putInt(image.crc32c()).array();
    }

    private static BlockImage received(ProcessGroup g, int from, String where) {
        ByteBuffer h = ByteBuffer.wrap(g.receive(from, TAG)).order(ByteOrder.LITTLE_ENDIAN);
        long id = h.getLong();
        int crc = h.getInt();
        return new BlockImage(id, g.receiveBuffer(from, TAG), crc).verified(where);
    }

    private static String abbreviate(List<Integer> ids) {
        return ids.size() <= 8 ? ids.toString() : ids.subList(0, 8) + " and " + (ids.size() - 8) + " more";
    }
}
