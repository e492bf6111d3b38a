package io.ironloop.runtime.blocks;

import io.ironloop.BufferPool;
import io.ironloop.ConfigurationException;
import io.ironloop.DirectMemory;
import io.ironloop.config.ParameterTable;
import io.ironloop.config.Parameters;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.EngineKeys;
import io.ironloop.core.EngineListener;
import io.ironloop.core.CheckpointCosts;
import io.ironloop.core.LineInfo;
import io.ironloop.core.MtbfEstimate;
import io.ironloop.core.Schedule;
import java.time.Duration;
import io.ironloop.core.Snapshotable;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.Cadence;
import io.ironloop.core.level.DiskLevel;
import io.ironloop.core.level.ErasureLevel;
import io.ironloop.core.level.ScheduledLevel;
import io.ironloop.core.level.Level;
import io.ironloop.core.level.LevelChain;
import io.ironloop.core.level.LineReplicator;
import io.ironloop.core.level.PartnerLevel;
import io.ironloop.core.level.Placement;
import io.ironloop.core.level.SelfMemoryLevel;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.GroupListener;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.group.ProcessGroup;
import io.ironloop.group.ProcessGroups;
import io.ironloop.group.ReduceOp;
import io.ironloop.runtime.RuntimeKeys;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvents;
import io.ironloop.runtime.internal.blocks.BlockCollectives;
import io.ironloop.runtime.internal.blocks.BlockSnapshots;
import io.ironloop.runtime.internal.blocks.ByteCounter;
import io.ironloop.runtime.internal.blocks.Domain;
import io.ironloop.runtime.internal.blocks.GroupPeers;
import io.ironloop.runtime.internal.blocks.HaloExchange;
import io.ironloop.runtime.internal.blocks.Ownership;
import io.ironloop.runtime.internal.metrics.RankMetrics;
import io.ironloop.runtime.internal.state.CommittedLines;
import io.ironloop.runtime.internal.state.RankInputs;
import io.ironloop.runtime.internal.state.RemoteCopies;
import io.ironloop.runtime.recovery.OnlineRecovery;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A block-structured iterative application that keeps going when a process dies (waLBerla's diskless
 * checkpointing and recovery without relaunch). The domain is many {@link Block}s, owned by ranks; as
 * {@code SNAPSHOT_EVERY} says (every N iterations, every T, or adaptive: Young/Daly from the measured snapshot
 * cost and {@code MTBF}) each rank snapshots its blocks into its own memory and its partners' (or its
 * erasure-coded group's parity, {@code MEMORY_SCHEME}), and, as {@code DISK_EVERY} says, to disk,
 * committed by a handshake. When a rank dies, the
 * survivors meet the failure in {@link #run}, shrink the group, restore the lost blocks from the copies,
 * reassign them (to a spare if there is one) and continue from the committed iteration — in the same job.
 *
 * <pre>{@code
 * try (BlockLoop<HeatBlock> loop = BlockLoop.builder(new Grid2D(8, 8, false, false), HeatBlock::new)
 *         .settings(Map.of("n", n)).start()) {
 *     loop.run(steps, step -> {
 *         step.exchangeHalos();
 *         step.blocks().forEach(HeatBlock::relax);
 *     });
 *     System.out.println("result sha256=" + loop.digest());
 * }
 * }</pre>
 *
 * <p>Determinism: a step must depend only on the blocks' state and the iteration; halos are routed and
 * {@link StepContext#sum} adds in block order whoever owns the blocks, so a run with losses ends
 * bit-identical to one without. A relaunched job resumes from the newest complete disk line: over every rank's store
 * (one shared folder, or each host's own disk, {@code DISK_PER_HOST}), with the lines a store lacks brought back from
 * the shared and object-store levels ({@code SHARED_FOLDER}, {@code S3_URI}) or rebuilt from the erasure parity in
 * the other members' lines.
 *
 * <p>Threading: one application thread. Collective: every rank calls the same methods in the same order.
 *
 * @param <B> the block type
 */
public final class BlockLoop<B extends Block> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BlockLoop.class);
    private static final String SETTINGS_ENTRY_PREFIX = "blocks\n";
    /** The parameters a block loop reads: the runtime's one table (a parameter file serves either API). */
    public static final ParameterTable TABLE = RuntimeKeys.TABLE;

    private final Parameters parameters;
    private final RuntimeEvents events = new RuntimeEvents();
    private final Domain<B> domain;
    private final LevelChain chain;
    private final DiskLevel disk;
    /** Copies the disk lines to the shared and object-store levels (none configured: a no-op), or null without disk lines. */
    private LineReplicator remoteCopies;
    private final BlockSnapshots snapshots;
    private final OnlineRecovery recovery;
    private final RankMetrics metrics;
    private final double memoryFactor;
    private Cadence snapshotCadence;
    private final ScheduledLevel scheduledDisk;
    private final CheckpointCosts snapshotCosts = new CheckpointCosts();
    private final CheckpointCosts diskCosts = new CheckpointCosts();
    private MtbfEstimate snapshotMtbf;
    private final MtbfEstimate diskMtbf;
    private long capturedIteration = -1;
    private Duration captureCost = Duration.ZERO;
    private long stepNanos;
    private long stepsTimed;
    private boolean rescheduleDue;
    private long iteration;
    private int onlineRecoveries;
    private boolean planned;
    private boolean closed;
    /** The in-memory copies' direct memory in the JVM's account (none with a MEMORY_BUDGET), until closed. */
    private DirectMemory.Reservation copiesReserved;

    private BlockLoop(Builder<B> b) {
        this.parameters = b.parameters != null ? b.parameters : RankInputs.parameters(null);
        b.subscribers.forEach(events::subscribe);
        events.subscribeProvided(this::currentRank); // the launcher's, under ironloop run
        this.snapshotCadence = new Cadence("memory", b.snapshots != null ? b.snapshots : parameters.get(BlockKeys.SNAPSHOT_EVERY));
        if (snapshotCadence.schedule() instanceof Schedule.Never) {
            throw new ConfigurationException("SNAPSHOT_EVERY is never, but a block loop recovers from its in-memory snapshots: "
                    + "give a count (10), a time (30s) or adaptive");
        }
        this.snapshotMtbf = MtbfEstimate.learning(b.snapshotMtbf != null ? b.snapshotMtbf : parameters.get(EngineKeys.MTBF), System::nanoTime);
        this.diskMtbf = MtbfEstimate.learning(parameters.get(BlockKeys.DISK_MTBF), System::nanoTime);
        events.subscribe(e -> {
            // what a snapshot costs the loop: its capture, and the wait for its handshake one iteration later
            if (e instanceof RuntimeEvent.Snapshotted s && s.kind() == RuntimeEvent.StateKind.BLOCKS) {
                capturedIteration = s.iteration();
                captureCost = s.blocking();
            } else if (e instanceof RuntimeEvent.Handshake h && h.committed() && h.iteration() == capturedIteration) {
                snapshotCosts.record(captureCost.plus(h.waited()));
            } else if (e instanceof RuntimeEvent.RecoveredOnline r) { // the failures each level covers, as the job sees them
                snapshotMtbf.failureSeen();
                if (r.source() == RuntimeEvent.RecoverySource.DISK) {
                    diskMtbf.failureSeen();
                }
            }
        });
        ProcessGroup group = b.group != null ? b.group : b.joiner.apply(parameters);
        RankMetrics rankMetrics = null;
        try {
            rankMetrics = RankMetrics.start(parameters, group.jobId(), group.worldRank(group.rank()), group.size());
            events.subscribe(rankMetrics);
            int spares = Math.toIntExact(parameters.get(BlockKeys.SPARES));
            if (spares >= group.size()) {
                throw new ConfigurationException("SPARES is " + spares + " but the job has only " + group.size()
                        + " ranks: at least one rank must compute");
            }
            Map<Integer, String> hosts = hosts(group, parameters.find(BlockKeys.HOST).orElse(""));
            Ownership ownership = Ownership.initial(b.layout.blockCount(), group.size(), spares, b.balancer);
            this.domain = new Domain<>(b.layout, b.factory, group, ownership);
            List<Level> levels = new ArrayList<>();
            BufferPool images = new BufferPool(Runtime.getRuntime().maxMemory()); // at most what the heap could hold
            SelfMemoryLevel self = new SelfMemoryLevel(images);
            levels.add(self);
            List<Level> memoryLevels = new ArrayList<>(levels);
            Level others = null;
            if (group.size() > 1) {
                others = othersLevel(() -> new GroupPeers(domain.group(), hosts), b.placement);
                levels.add(others);
                memoryLevels.add(others);
            }
            Schedule diskEvery = parameters.get(BlockKeys.DISK_EVERY);
            // an erasure-coded level's parity goes into each disk line too, so that a relaunch rebuilds a rank's lost lines
            java.util.function.Function<Long, java.util.Optional<io.ironloop.core.level.ParityRecord>> parity =
                    others instanceof ErasureLevel erasure ? erasure::parityOf : it -> java.util.Optional.empty();
            this.disk = diskEvery instanceof Schedule.Never ? null : openDisk(group, b.settings, parity,
                    hosts.get(group.worldRank(group.rank())));
            this.scheduledDisk = disk == null ? null : new ScheduledLevel(disk, new Cadence(disk.name(), diskEvery));
            if (disk != null) {
                levels.add(scheduledDisk);
            }
            this.chain = new LevelChain(levels);
            this.memoryFactor = chain.memoryFactor();
            BlockSnapshots.LoopState loopState = new BlockSnapshots.LoopState(b.globals);
            this.snapshots = new BlockSnapshots(chain, loopState, events, images);
            this.recovery = new OnlineRecovery(new LevelChain(memoryLevels), disk, b.balancer, loopState, events);
            checkMemory();
            events.publish(new RuntimeEvent.OnlineProtection(chain.levels().stream().map(Level::name).toList(), memoryFactor, spares));
            if (disk != null && !parameters.get(RuntimeKeys.FRESH)) {
                recovery.resumeFromDisk(domain).ifPresent(it -> {
                    iteration = it;
                    events.publish(new RuntimeEvent.Restored(RuntimeEvent.StateKind.BLOCKS, it));
                });
            }
            this.metrics = rankMetrics;
            protect(iteration);
        } catch (RuntimeException e) {
            if (remoteCopies != null) {
                remoteCopies.close();
            }
            if (copiesReserved != null) {
                copiesReserved.close();
            }
            if (rankMetrics != null) {
                rankMetrics.close();
            }
            group.close();
            throw e;
        }
        LOG.info("world rank {} of {}: {} blocks here, snapshots {}{} on levels {}, memory factor ×{}; not protected: {}termination "
                        + "signals and preemption notices (a block loop has no trigger; TRIGGER_SIGNAL does not apply: SIGTERM ends "
                        + "the rank like a crash)", domain.worldRank(), group.size(), domain.blocks().size(), snapshotCadence.schedule(),
                scheduledDisk == null ? "" : ", disk lines " + scheduledDisk.cadence().schedule(),
                chain.levels().stream().map(Level::name).toList(), memoryFactor,
                disk == null ? "a relaunched job (DISK_EVERY 0: nothing on disk), " : "");
    }

    /** The level keeping other ranks' snapshots in memory, as {@code MEMORY_SCHEME} says. */
    private Level othersLevel(java.util.function.Supplier<io.ironloop.core.level.PeerLink> peers, Placement placement) {
        int k = Math.toIntExact(parameters.get(BlockKeys.ERASURE_K));
        int m = Math.toIntExact(parameters.get(BlockKeys.ERASURE_M));
        try {
            return switch (parameters.get(BlockKeys.MEMORY_SCHEME)) {
                case PARTNER -> new PartnerLevel(peers, placement);
                case XOR -> ErasureLevel.xor(peers, k);
                case RS -> ErasureLevel.reedSolomon(peers, k, m);
            };
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("ERASURE_K " + k + " and ERASURE_M " + m + " make no erasure code: " + e.getMessage(), e);
        }
    }

    private DiskLevel openDisk(ProcessGroup group, Map<String, ?> settings,
            java.util.function.Function<Long, java.util.Optional<io.ironloop.core.level.ParityRecord>> parity, String host) {
        Path folder = parameters.get(EngineKeys.FT_FOLDER).toAbsolutePath().normalize();
        if (parameters.get(BlockKeys.DISK_PER_HOST)) { // this host's own store, as a node-local disk
            folder = folder.resolve(host.isEmpty() ? "unknown-host" : host.replaceAll("[^A-Za-z0-9._-]", "_"));
        }
        int world = group.worldRank(group.rank());
        EngineConfig config = EngineConfig.from(parameters).jobId(group.jobId()).rank(world, group.size())
                .series(StoreCatalog.rankSeries(world)).build();
        CommittedLines committed = CommittedLines.provided(parameters, events); // the site's protector, on protected sites
        EngineListener durable = new EngineListener() {
            @Override
            public void checkpointDurable(LineInfo line, Duration sinceStart, long bytesWritten) {
                diskCosts.record(sinceStart);
                // written in the background from a snapshot whose blocking its in-memory save reports
                events.publish(new RuntimeEvent.Saved(RuntimeEvent.StateKind.BLOCKS, line.iteration(), RuntimeEvent.Saved.DISK,
                        sinceStart, Duration.ZERO, bytesWritten));
                committed.committed(line);
            }
        };
        // the remote levels (SHARED_FOLDER, S3_URI) first bring back this rank's lines the store lacks (a replaced disk),
        // then copy every line the disk level commits
        Store store = Store.directory(folder);
        remoteCopies = RemoteCopies.open(parameters, store, List.of(config.series()),
                new LineReplicator.Listener() {
                    @Override
                    public void copied(String level, LineInfo line, Duration took, long bytes) {
                        events.publish(new RuntimeEvent.Saved(RuntimeEvent.StateKind.BLOCKS, line.iteration(), level, took, Duration.ZERO,
                                bytes));
                    }
                });
        // every snapshot offered is written: the ScheduledLevel around it decides which are offered
        DiskLevel level = new DiskLevel(store, config, canonical(settings), 1, remoteCopies.listening(durable), parity);
        RemoteCopies.catchUp(remoteCopies, List.of(config.series()));
        return level;
    }

    /**
     * Refuses, with the figures, a scheme whose copies will not fit the memory budget. Collective. Without
     * {@code MEMORY_BUDGET}, the state lives on the heap and the in-memory copies off it (direct buffers): the
     * copies must fit the JVM's direct-memory limit, the state its heap.
     */
    private void checkMemory() {
        ByteCounter state = new ByteCounter(); // counts what the blocks would write, copying nothing
        domain.blocks().values().forEach(blk -> blk.save(state));
        long largest = domain.group().allreduce(state.bytes(), ReduceOp.MAX);
        long budget = parameters.get(BlockKeys.MEMORY_BUDGET);
        long needed = (long) Math.ceil(largest * memoryFactor);
        List<String> levels = chain.levels().stream().map(Level::name).toList();
        if (budget > 0 && needed > budget) {
            throw new ConfigurationException(String.format("the protection scheme needs %d bytes per process (state %d bytes × memory "
                    + "factor %s: the state, and two buffers each of the own snapshot and of what the levels %s keep of the others') "
                    + "but MEMORY_BUDGET is %d bytes: raise it, use more ranks, a cheaper MEMORY_SCHEME or fewer levels", needed, largest,
                    factor(memoryFactor), levels, budget));
        }
        if (budget == 0) {
            long copies = (long) Math.ceil(largest * (memoryFactor - 1));
            copiesReserved = DirectMemory.reserve(String.format("the in-memory copies of world rank %d (state %d bytes × %s: two buffers "
                    + "each of the own snapshot and of what the levels %s keep of the others, off the heap)", domain.worldRank(), largest,
                    factor(memoryFactor - 1), levels), copies, "raise -XX:MaxDirectMemorySize (default: the maximum heap, -Xmx), use more "
                    + "ranks, a cheaper MEMORY_SCHEME or fewer levels");
        }
    }

    /** A memory factor as people write it: 5, 3.5, 3.67. */
    private static String factor(double f) {
        return new java.math.BigDecimal(f).setScale(2, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    private static Map<Integer, String> hosts(ProcessGroup group, String configured) {
        String host = configured;
        if (host.isEmpty()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "";
            }
        }
        byte[][] all = group.allgather(host.getBytes(StandardCharsets.UTF_8));
        Map<Integer, String> byWorld = new HashMap<>();
        for (int r = 0; r < all.length; r++) {
            byWorld.put(group.worldRank(r), new String(all[r], StandardCharsets.UTF_8));
        }
        return byWorld;
    }

    /** The settings' canonical bytes, marked as a block loop's. */
    private static byte[] canonical(Map<String, ?> settings) {
        byte[] prefix = SETTINGS_ENTRY_PREFIX.getBytes(StandardCharsets.UTF_8);
        byte[] lines = RankInputs.canonical(settings);
        byte[] all = java.util.Arrays.copyOf(prefix, prefix.length + lines.length);
        System.arraycopy(lines, 0, all, prefix.length, lines.length);
        return all;
    }

    /** A builder for a loop over {@code layout}, whose blocks {@code factory} creates in their initial state. */
    public static <B extends Block> Builder<B> builder(BlockLayout layout, IntFunction<? extends B> factory) {
        return new Builder<>(layout, factory);
    }

    /**
     * Declares the last iteration the loop will run ({@link RuntimeEvent.Planned}), for a caller that runs it in
     * several {@link #run} calls; otherwise the first {@code run(steps, …)} declares {@code steps - 1}.
     *
     * @param lastIteration the last iteration number
     */
    public void plan(long lastIteration) {
        planned = true;
        events.publish(new RuntimeEvent.Planned(lastIteration));
    }

    /**
     * Runs {@code step} until the loop reaches {@code steps} iterations, snapshotting as {@code SNAPSHOT_EVERY}
     * says and at the last, and recovering inside the job from every failure it can (Algorithm 3: the failure
     * is caught here, never half-way through a step on some ranks only).
     *
     * @throws RecoveryFailedException when a lost rank's blocks have no copy left anywhere
     */
    public void run(long steps, Step<B> step) {
        ensureOpen();
        if (!planned) {
            plan(steps - 1); // the loop reports iterations 0 … steps - 1
        }
        StepContext<B> context = new Context();
        do {
            while (iteration < steps) {
                try {
                    events.publish(new RuntimeEvent.IterationStarted(iteration));
                    long start = System.nanoTime();
                    step.run(context);
                    stepNanos += System.nanoTime() - start;
                    stepsTimed++;
                    iteration++;
                    if (snapshots.inFlight() && handshake(() -> snapshots.settle(domain)) == BlockSnapshots.Verdict.FAILED) {
                        recover(true, System.nanoTime()); // the handshake of the snapshot one iteration ago
                        continue;
                    }
                    if (snapshotCadence.due(iteration, iteration) || iteration == steps) {
                        snapshot(iteration);
                    }
                    if (rescheduleDue) {
                        reschedule();
                    }
                } catch (ProcessFailedException e) {
                    recover(false, System.nanoTime());
                }
            }
        } while (!lastSnapshotSettled());
    }

    /** The run ends with its last snapshot committed (its handshake made); false when a rank failed meanwhile (recovered). */
    private boolean lastSnapshotSettled() {
        if (handshake(() -> snapshots.settle(domain)) == BlockSnapshots.Verdict.FAILED) {
            recover(true, System.nanoTime());
            return false;
        }
        return true;
    }

    /** Captures the snapshot of {@code at} (its handshake comes one iteration later); recovers when a rank failed. */
    private void snapshot(long at) {
        if (handshake(() -> snapshots.take(domain, at)) == BlockSnapshots.Verdict.FAILED) {
            recover(true, System.nanoTime());
        }
    }

    /** Makes a call that may make a handshake; when it committed a snapshot, the cadence counts from that snapshot. */
    private BlockSnapshots.Verdict handshake(java.util.function.Supplier<BlockSnapshots.Verdict> call) {
        long before = snapshots.committed();
        BlockSnapshots.Verdict verdict = call.get();
        if (snapshots.committed() != before) {
            snapshotCadence.saved(snapshots.committed());
            rescheduleDue = true;
        }
        return verdict;
    }

    /**
     * Sets when the next in-memory snapshot and disk line are due, for time and adaptive schedules, from figures
     * every rank agrees on (one allreduce, only when a schedule needs figures): the slowest rank's time per
     * iteration and its levels' costs, and the smallest MTBF estimate. Collective, after an iteration has been timed.
     */
    private void reschedule() {
        boolean disk = scheduledDisk != null && scheduledDisk.cadence().needsFigures();
        if (!snapshotCadence.needsFigures() && !disk) {
            rescheduleDue = false;
            return;
        }
        if (stepsTimed == 0) {
            return; // not one iteration timed since the start or a recovery: after the next one
        }
        // one MAX allreduce: the MTBFs go negated, so that the smallest estimate wins
        double[] agreed = domain.group().allreduce(new double[] {stepNanos / (double) stepsTimed, nanos(snapshotCosts),
            nanos(diskCosts), -snapshotMtbf.current().toNanos(), -diskMtbf.current().toNanos()}, ReduceOp.MAX);
        Duration perIteration = Duration.ofNanos((long) agreed[0]);
        snapshotCadence.reschedule(perIteration, cost(agreed[1]), Duration.ofNanos((long) -agreed[3]));
        if (disk) {
            scheduledDisk.cadence().reschedule(perIteration, cost(agreed[2]), Duration.ofNanos((long) -agreed[4]));
        }
        LOG.debug("world rank {}: next snapshot at iteration {}, next disk line at {} ({} per iteration)", domain.worldRank(),
                snapshotCadence.nextIteration(), scheduledDisk == null ? "never" : scheduledDisk.cadence().nextIteration(), perIteration);
        stepNanos = 0;
        stepsTimed = 0;
        rescheduleDue = false;
    }

    /** A mean cost in nanoseconds, or -1 while none is known. */
    private static double nanos(CheckpointCosts costs) {
        return costs.mean().map(d -> (double) d.toNanos()).orElse(-1.0);
    }

    private static Optional<Duration> cost(double agreedNanos) {
        return agreedNanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos((long) agreedNanos));
    }

    /**
     * Recovers and resumes at once: the images the recovery restored from stay committed on their holders, so
     * the blocks stay protected (by one copy fewer where a lost rank held copies) until the next regular
     * snapshot re-protects everything under the new placement — a full snapshot here would hold up the
     * first iteration after a loss by as long as a snapshot takes.
     */
    private void recover(boolean handshakeDone, long detected) {
        if (!handshakeDone) {
            snapshots.abandon(domain.group());
        }
        iteration = recovery.recover(domain, snapshots.committed(), detected);
        onlineRecoveries++;
        snapshotCadence.saved(iteration); // the next snapshot is one interval after the one the loop resumed from
        stepNanos = 0;
        stepsTimed = 0;
        rescheduleDue = true;
    }

    /** Snapshots {@code at} at once (at start and after a recovery, under the new placement), recovering again if need be. */
    private void protect(long at) {
        snapshot(at);
    }

    /** This process's rank in the current group (it changes after a recovery). */
    private int currentRank() {
        return domain.group().rank();
    }

    /**
     * Where this rank serves its metrics in Prometheus' format (path {@code /metrics}), if {@code METRICS_PORT} is
     * set: with {@code METRICS_PORT} 0, the port the kernel chose.
     */
    public Optional<InetSocketAddress> metricsAddress() {
        return metrics.address();
    }

    /** The iteration the loop is at (the next step computes it). */
    public long iteration() {
        return iteration;
    }

    /** This rank's blocks now, in id order. */
    public List<B> blocks() {
        return domain.blockList();
    }

    /** The current process group (it changes after a recovery). */
    public ProcessGroup group() {
        return domain.group();
    }

    /** How many snapshots this rank committed (every rank alike, after the handshakes), the one at start included. */
    public long snapshotsCommitted() {
        return snapshots.commits();
    }

    /** When the loop snapshots: {@code SNAPSHOT_EVERY}, the builder's {@link Builder#snapshots}, or the last {@link #snapshots(Schedule)}. */
    public Schedule snapshots() {
        return snapshotCadence.schedule();
    }

    /**
     * Changes when the loop snapshots, from its next decision on — also from inside a step, so that an application (a
     * skeleton's checkpoint condition, the paper's "collaboration") changes it without leaving {@link #run}: every N
     * iterations, every T (from the slowest rank's time per iteration) or adaptive (Young/Daly from the measured
     * snapshot cost and the loop's MTBF, {@code MTBF}). The interval counts from the last committed snapshot. Every
     * rank must make the same call at the same point of its program.
     *
     * @throws IllegalArgumentException for {@link Schedule.Never}: the loop recovers from its snapshots
     */
    public void snapshots(Schedule schedule) {
        snapshots(schedule, snapshotMtbf.configured());
    }

    /**
     * {@link #snapshots(Schedule)} with the MTBF an adaptive schedule assumes until the loop has seen failures of its own.
     *
     * @throws IllegalArgumentException for {@link Schedule.Never}, or an MTBF that is not positive
     */
    public void snapshots(Schedule schedule, Duration mtbf) {
        Objects.requireNonNull(schedule, "schedule");
        if (schedule instanceof Schedule.Never) {
            throw new IllegalArgumentException("a block loop recovers from its in-memory snapshots: give a count, a time or adaptive, not never");
        }
        positive(mtbf);
        if (!mtbf.equals(snapshotMtbf.configured())) {
            snapshotMtbf = MtbfEstimate.learning(mtbf, System::nanoTime);
        }
        snapshotCadence = snapshotCadence.with(schedule);
        rescheduleDue = true;
    }

    private static Duration positive(Duration mtbf) {
        if (mtbf.isZero() || mtbf.isNegative()) {
            throw new IllegalArgumentException("the MTBF must be positive, not " + mtbf);
        }
        return mtbf;
    }

    /** How many times this loop recovered inside the job. */
    public int onlineRecoveries() {
        return onlineRecoveries;
    }

    /**
     * Memory per byte of state the configured levels keep (waLBerla's pairwise scheme with double buffers: 5; XOR
     * over k: 3 + 2/k; RS(k, m): 3 + 2m/k).
     */
    public double memoryFactor() {
        return memoryFactor;
    }

    /**
     * SHA-256 of every block's state in block order, the same on every rank whoever owns what. Collective; a
     * failure during it is recovered like one in {@link #run} (from the snapshot of the last iteration) and the
     * digest is taken again.
     */
    public String digest() {
        ensureOpen();
        return afterRun(() -> BlockCollectives.digest(domain));
    }

    /** The sum over every block of {@code value}, in block order. Collective; recovered like {@link #digest()}. */
    public double sum(ToDoubleFunction<? super B> value) {
        ensureOpen();
        return afterRun(() -> BlockCollectives.sum(domain, value));
    }

    /** Runs a collective outside the loop; when a rank failed during it, recovers and runs it again, on every survivor alike. */
    private <T> T afterRun(java.util.function.Supplier<T> collective) {
        lastSnapshotSettled(); // no snapshot is in flight while the group runs collectives outside the loop
        while (true) {
            T result = null;
            boolean completed = true;
            try {
                result = collective.get();
            } catch (ProcessFailedException e) {
                completed = false;
            }
            if (BlockSnapshots.confirm(domain.group(), completed)) {
                return result;
            }
            recover(true, System.nanoTime());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the block loop is closed");
        }
    }

    /** Waits for the disk lines in flight, releases the levels and leaves the group. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            snapshots.close();
            if (disk != null) {
                disk.awaitDurable();
            }
            chain.close();
        } finally {
            if (remoteCopies != null) {
                remoteCopies.close(); // waits for the copies in flight
            }
            if (copiesReserved != null) {
                copiesReserved.close();
            }
            metrics.close();
            domain.group().close();
        }
    }

    private final class Context implements StepContext<B> {
        @Override
        public long iteration() {
            return iteration;
        }

        @Override
        public List<B> blocks() {
            return domain.blockList();
        }

        @Override
        public void exchangeHalos() {
            HaloExchange.exchange(domain);
        }

        @Override
        public void exchangeHalos(int ranksAtATime) {
            HaloExchange.exchange(domain, ranksAtATime);
        }

        @Override
        public double sum(ToDoubleFunction<? super B> value) {
            return BlockCollectives.sum(domain, value);
        }

        @Override
        public ProcessGroup group() {
            return domain.group();
        }
    }

    /** Builds a {@link BlockLoop}; {@link #start()} joins the group and restores from disk when a complete line exists. */
    public static final class Builder<B extends Block> {
        private final BlockLayout layout;
        private final IntFunction<? extends B> factory;
        private final List<Snapshotable> globals = new ArrayList<>();
        private final List<Consumer<? super RuntimeEvent>> subscribers = new ArrayList<>();
        private Map<String, ?> settings = Map.of();
        private Parameters parameters;
        private Balancer balancer = Balancer.greedy();
        private Placement placement = Placement.pairwise();
        private ProcessGroup group;
        private Schedule snapshots;
        private Duration snapshotMtbf;
        private Function<Parameters, ProcessGroup> joiner = p -> ProcessGroups.join(GroupConfig.from(p), new GroupListener() {
        });

        private Builder(BlockLayout layout, IntFunction<? extends B> factory) {
            this.layout = Objects.requireNonNull(layout, "layout");
            this.factory = Objects.requireNonNull(factory, "factory");
        }

        /** The application's settings, fingerprinted into every disk line (a line of other settings is never restored). */
        public Builder<B> settings(Map<String, ?> value) {
            this.settings = Map.copyOf(value);
            return this;
        }

        /** The parameters (default: the launcher's parameter file and {@code IRONLOOP_<KEY>} variables). */
        public Builder<B> parameters(Parameters value) {
            this.parameters = Objects.requireNonNull(value, "parameters");
            return this;
        }

        /** How blocks are spread over ranks (default {@link Balancer#greedy()}). */
        public Builder<B> balancer(Balancer value) {
            this.balancer = Objects.requireNonNull(value, "balancer");
            return this;
        }

        /** Who keeps whose in-memory copies (default {@link Placement#pairwise()}). */
        public Builder<B> placement(Placement value) {
            this.placement = Objects.requireNonNull(value, "placement");
            return this;
        }

        /**
         * When the loop snapshots, instead of {@code SNAPSHOT_EVERY} (e.g. a skeleton's checkpoint condition); it can be
         * changed during the run with {@link BlockLoop#snapshots(Schedule)}.
         */
        public Builder<B> snapshots(Schedule value) {
            this.snapshots = Objects.requireNonNull(value, "snapshots");
            return this;
        }

        /** {@link #snapshots(Schedule)} with the MTBF an adaptive schedule assumes instead of {@code MTBF}. */
        public Builder<B> snapshots(Schedule value, Duration mtbf) {
            snapshots(value);
            this.snapshotMtbf = positive(mtbf);
            return this;
        }

        /** State of the loop besides its blocks, the same on every rank (kept in every rank's snapshot). */
        public Builder<B> global(Snapshotable value) {
            globals.add(Objects.requireNonNull(value, "global"));
            return this;
        }

        /** Receives the loop's events (on the application's thread). */
        public Builder<B> subscribe(Consumer<? super RuntimeEvent> subscriber) {
            subscribers.add(Objects.requireNonNull(subscriber, "subscriber"));
            return this;
        }

        /** Runs in this group instead of joining one (tests, or a group the application made). */
        public Builder<B> group(ProcessGroup value) {
            this.group = Objects.requireNonNull(value, "group");
            return this;
        }

        /** Joins the group, assigns the blocks, restores from disk if a complete line exists and takes the first snapshot. */
        public BlockLoop<B> start() {
            return new BlockLoop<>(this);
        }
    }
}
