package io.ironloop.runtime.skeleton;

import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.core.Snapshotable;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.blocks.BlockLayout;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.blocks.StepContext;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.internal.state.RankInputs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.ToDoubleBiFunction;

/**
 * A fault-tolerant loop skeleton over a distributed domain (FT-GReLoSSS, MoLOToF): the application gives a
 * {@link Kernel} (the calculation and the step iterator), a {@link Partition} of the domain into parts and the
 * domain's {@link Box}; the skeleton owns the loop — <b>calculate</b> (read domain → write domain) → <b>conditional
 * communication</b> (the {@link RoutingPlan}: border exchange, or data circulation) → <b>swap</b> → <b>checkpoint</b>
 * when the {@link CheckpointCondition} says so (a {@link Schedule}, the block loop's one definition of when to
 * checkpoint) — and the recovery.
 *
 * <pre>{@code
 * try (Skeleton<Domain2D> skeleton = Skeleton.builder(domain, 8, Partition.slabs(domain, 0, 1), kernel)
 *         .checkpointInput(false).start()) {          // unregister the input domain: half-size checkpoints
 *     skeleton.run();
 *     System.out.println("result sha256=" + skeleton.digest());
 * }
 * }</pre>
 *
 * <p>The parts are the blocks of a {@link BlockLoop}, spread over the ranks; its levels (own memory, partner copies,
 * disk lines) keep the checkpoints and its recovery component handles failures: a rank lost during the run is
 * recovered inside the job (the survivors take its parts over from the in-memory copies, or from disk), a job
 * that was stopped resumes from the newest disk line complete for every part — negotiated by the ranks' agreement
 * — after re-executing the light operations (the step iterator and {@link Kernel#init}). The number of parts is
 * fixed for a run, the number of ranks is not: a restart on M ranks (at most the number of parts) assigns the
 * parts anew and each rank reads its parts from whichever old ranks' files hold them.
 *
 * <p>Checkpoint contents: by default each part's read and write domains and the loop's step; {@link
 * Builder#checkpointInput(boolean) checkpointInput(false)} leaves out the input domain (useless after the swap),
 * halving the checkpoint, and {@link Builder#register} adds application data.
 *
 * <p>Threading: one application thread per rank. Collective: every rank makes the same calls in the same order.
 *
 * @param <D> the domain type the kernel works on
 */
public final class Skeleton<D extends DoubleDomain> implements AutoCloseable {
    private final Shared shared;
    private final long[] steps;
    private final BlockLoop<Part<D>> loop;
    private long restoredAt;
    private final StartTimes startTimes;

    private Skeleton(Builder<D> b) {
        long start = System.nanoTime();
        Parameters parameters = b.parameters != null ? b.parameters : RankInputs.parameters(null);
        this.steps = stepList(b.kernel);
        this.shared = new Shared(b, steps.length == 0 ? b.kernel.begin() : steps[0]);
        long iterated = System.nanoTime();
        BlockLoop.Builder<Part<D>> lb = BlockLoop.builder(BlockLayout.allToAll(b.parts), id -> new Part<>(id, shared))
                .parameters(parameters).settings(b.settings).subscribe(this::measure);
        CheckpointCondition condition = b.condition;
        if (condition != null) { // else SNAPSHOT_EVERY, which the loop reads itself
            condition.mtbf().ifPresentOrElse(mtbf -> lb.snapshots(condition.schedule(), mtbf), () -> lb.snapshots(condition.schedule()));
        }
        lb.global(shared.boxes); // first: the loop restores it before the parts, which take their boxes from it
        b.registered.forEach(lb::global);
        b.subscribers.forEach(lb::subscribe);
        if (b.group != null) {
            lb.group(b.group);
        }
        this.loop = lb.start();
        long end = System.nanoTime();
        long light = iterated - start + shared.initNanos;
        this.startTimes = restoredAt == 0 ? new StartTimes(Duration.ofNanos(light), Duration.ZERO, Duration.ZERO, Duration.ofNanos(end - start))
                : new StartTimes(Duration.ofNanos(light), Duration.ofNanos(restoredAt - shared.initEnd), Duration.ofNanos(end - restoredAt),
                        Duration.ofNanos(end - start));
    }

    /**
     * How long {@link Builder#start()} took on this rank, split as the paper splits a restart.
     *
     * @param lightOperations re-executing the light operations: the step iterator and the parts' {@link Kernel#init}
     * @param readingData from the parts' creation to their checkpoint loaded: opening the disk level, negotiating the
     *     recovery line with the other ranks and reading this rank's parts from whichever files hold them (zero on a
     *     fresh start)
     * @param positioning from the checkpoint loaded to the loop ready at its step: the first checkpoint under the new
     *     placement, to memory, the partner and disk (zero on a fresh start)
     * @param total the whole start, joining the group included
     */
    public record StartTimes(Duration lightOperations, Duration readingData, Duration positioning, Duration total) {
    }

    /** How long the start took and where the time went (a restart: light operations, reading data, positioning). */
    public StartTimes startTimes() {
        return startTimes;
    }

    /** The steps from begin to end (a light operation, re-executed on every restart). */
    private static long[] stepList(Kernel<?> kernel) {
        List<Long> list = new ArrayList<>();
        for (long s = kernel.begin(); s != kernel.end(); s = kernel.next(s)) {
            if (list.size() == Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("the kernel's iterator never reaches its end " + kernel.end());
            }
            list.add(s);
        }
        return list.stream().mapToLong(Long::longValue).toArray();
    }

    private void measure(RuntimeEvent e) {
        if (e instanceof RuntimeEvent.Restored && restoredAt == 0) {
            restoredAt = System.nanoTime();
        }
    }

    /**
     * A builder for a skeleton over {@code domain} split into {@code parts} parts by {@code partition}, computed by
     * {@code kernel}.
     */
    public static <D extends DoubleDomain> Builder<D> builder(Box domain, int parts, Partition partition, Kernel<D> kernel) {
        return new Builder<>(domain, parts, partition, kernel);
    }

    /**
     * Runs the loop to the kernel's end: calculate → conditional communication → swap → checkpoint when the condition
     * says so (and after the last step). The checkpoints are the block loop's snapshots, taken inside one
     * {@link BlockLoop#run}: each one's copies and handshake overlap the next step, as in a hand-written loop. Failures
     * are recovered inside the job when a copy survives (the loop goes back to the recovery line and goes on).
     *
     * @throws IllegalArgumentException on every rank, when the partition is invalid at a step (naming the parts and boxes)
     * @throws IllegalStateException on every rank, when the communication condition differs between ranks
     * @throws io.ironloop.runtime.blocks.RecoveryFailedException when a lost rank's parts have no copy left anywhere
     */
    public void run() {
        loop.plan(steps.length - 1);
        loop.run(steps.length, this::superstep);
    }

    private void superstep(StepContext<Part<D>> context) {
        int i = Math.toIntExact(context.iteration());
        long step = steps[i];
        long next = i + 1 < steps.length ? steps[i + 1] : step;
        RoutingPlan plan = RoutingPlan.between(shared.domain, shared.partition, shared.parts, step, next, shared.plan);
        shared.plan = plan;
        shared.boxes.calculate(plan);
        for (Part<D> p : context.blocks()) {
            p.calculate(step);
        }
        boolean communicate = communicationAgreed(context.group(), step);
        if (communicate) {
            shared.boxes.receive(plan);
            for (Part<D> p : context.blocks()) {
                p.prepareToReceive();
            }
            context.exchangeHalos(shared.transfersAtATime);
        }
        shared.boxes.swap(communicate);
        for (Part<D> p : context.blocks()) {
            p.swapDomains(communicate);
        }
    }

    /** The kernel's communication condition, checked to be the same on every rank. Collective. */
    private boolean communicationAgreed(ProcessGroup group, long step) {
        boolean mine = shared.kernel.communicate(step);
        byte[][] all = group.allgather(new byte[] {(byte) (mine ? 1 : 0)});
        TreeSet<Integer> yes = new TreeSet<>();
        TreeSet<Integer> no = new TreeSet<>();
        for (int r = 0; r < all.length; r++) {
            (all[r][0] == 1 ? yes : no).add(group.worldRank(r));
        }
        if (!yes.isEmpty() && !no.isEmpty()) {
            throw new IllegalStateException("the kernel's communication condition at step " + step + " is true on world ranks " + yes
                    + " and false on " + no + ": it must be the same on every rank (a function of the step only)");
        }
        return mine;
    }

    /**
     * Changes when checkpoints are taken, from the next decision on (the application's collaboration): also from inside
     * a step (the kernel's {@link Kernel#calculate}), without leaving {@link #run}. Every rank must set the same condition
     * at the same point of its program.
     */
    public void checkpointCondition(CheckpointCondition value) {
        Objects.requireNonNull(value, "condition");
        value.mtbf().ifPresentOrElse(mtbf -> loop.snapshots(value.schedule(), mtbf), () -> loop.snapshots(value.schedule()));
    }

    /** {@link #checkpointCondition(CheckpointCondition)} for a schedule: every N steps, every T, or adaptive (Young/Daly). */
    public void checkpointEvery(Schedule value) {
        checkpointCondition(CheckpointCondition.of(value));
    }

    /** Whether the input domain goes into the checkpoints from now on (registered) or not (unregistered). */
    public void checkpointInput(boolean value) {
        shared.checkpointInput = value;
    }

    /** The number of steps done (the next step to compute is the kernel's step of this index). */
    public long iteration() {
        return loop.iteration();
    }

    /** The number of steps of a complete run. */
    public long steps() {
        return steps.length;
    }

    /** The current process group (it changes after a recovery). */
    public ProcessGroup group() {
        return loop.group();
    }

    /** How many times this rank recovered inside the job. */
    public int onlineRecoveries() {
        return loop.onlineRecoveries();
    }

    /** This rank's parts now: each part's id mapped to its current read domain (after {@link #run}: the result). */
    public Map<Integer, D> domains() {
        Map<Integer, D> m = new java.util.TreeMap<>();
        loop.blocks().forEach(p -> m.put(p.id(), p.read()));
        return m;
    }

    /**
     * The sum over every part of {@code value(read domain, possessed box at the last step)}, added in part order: the
     * same bits on any number of ranks. Collective; recovered like {@link #digest()}.
     */
    public double sum(ToDoubleBiFunction<? super D, Box> value) {
        long last = steps.length == 0 ? shared.firstStep() : steps[steps.length - 1];
        return loop.sum(p -> value.applyAsDouble(p.read(), shared.partition.possessed(p.id(), shared.parts, last)));
    }

    /**
     * SHA-256 of every part's checkpoint image, in part order: the same on every rank and for any number of ranks.
     * Collective; a failure during it is recovered and the digest taken again.
     */
    public String digest() {
        return loop.digest();
    }

    /** Waits for the disk lines in flight and leaves the group. */
    @Override
    public void close() {
        loop.close();
    }

    /** What every part of this rank shares: the application's pieces and the routing plan of the step (or the last one). */
    final class Shared {
        final Box domain;
        final int parts;
        final Partition partition;
        final Kernel<D> kernel;
        final StorageOrder order;
        final RoutingPlan.Kind communication;
        /** The paced mode's limit on this rank's open transfers ({@link Integer#MAX_VALUE}: unpaced). */
        final int transfersAtATime;
        private final long first;
        volatile boolean checkpointInput;
        RoutingPlan plan;
        /** Every part's boxes, the same on every rank. */
        final PartBoxes boxes;
        /** Time spent in {@link Kernel#init}, and when the last part was created ({@link System#nanoTime()}). */
        long initNanos;
        long initEnd;

        Shared(Builder<D> b, long first) {
            this.domain = b.domain;
            this.parts = b.parts;
            this.partition = b.partition;
            this.kernel = b.kernel;
            this.order = b.order;
            this.communication = b.communication;
            this.transfersAtATime = b.transfersAtATime;
            this.checkpointInput = b.checkpointInput;
            this.first = first;
            this.boxes = new PartBoxes(this);
        }

        long firstStep() {
            return first;
        }
    }

    /** Builds a {@link Skeleton}; {@link #start()} joins the group and resumes from the newest complete disk line. */
    public static final class Builder<D extends DoubleDomain> {
        private final Box domain;
        private final int parts;
        private final Partition partition;
        private final Kernel<D> kernel;
        private final List<Snapshotable> registered = new ArrayList<>();
        private final List<Consumer<? super RuntimeEvent>> subscribers = new ArrayList<>();
        private StorageOrder order = StorageOrder.C;
        private RoutingPlan.Kind communication = RoutingPlan.Kind.BORDERS;
        private int transfersAtATime = Integer.MAX_VALUE;
        private boolean checkpointInput = true;
        private CheckpointCondition condition;
        private Map<String, ?> settings = Map.of();
        private Parameters parameters;
        private ProcessGroup group;

        private Builder(Box domain, int parts, Partition partition, Kernel<D> kernel) {
            this.domain = Objects.requireNonNull(domain, "domain");
            if (parts < 1) {
                throw new IllegalArgumentException("a skeleton needs at least one part, not " + parts);
            }
            this.parts = parts;
            this.partition = Objects.requireNonNull(partition, "partition");
            this.kernel = Objects.requireNonNull(kernel, "kernel");
        }

        /** The domains' storage order (default {@link StorageOrder#C}). */
        public Builder<D> order(StorageOrder value) {
            this.order = Objects.requireNonNull(value, "order");
            return this;
        }

        /** The kind of communication (default {@link RoutingPlan.Kind#BORDERS}, border exchange). */
        public Builder<D> communication(RoutingPlan.Kind value) {
            this.communication = Objects.requireNonNull(value, "communication");
            return this;
        }

        /**
         * The paced mode: when the routing plan runs, each rank exchanges with at most {@code ranks} other ranks at a
         * time — it sends its grouped messages to the next {@code ranks} ranks in rank order and takes theirs before it
         * sends further — instead of with all at once (the default). It bounds the transfers in flight and the message
         * memory of a step for plans where a part talks to many others (circulation, all-to-all); the results are the
         * same bits.
         *
         * @throws IllegalArgumentException if {@code ranks} is below 1
         */
        public Builder<D> paced(int ranks) {
            if (ranks < 1) {
                throw new IllegalArgumentException("the paced mode exchanges with at least one rank at a time, not " + ranks);
            }
            this.transfersAtATime = ranks;
            return this;
        }

        /**
         * Whether checkpoints hold the input domain as well as the output (default true, self-contained); false
         * unregisters it: after the swap it is useless, and the checkpoints are half the size.
         */
        public Builder<D> checkpointInput(boolean value) {
            this.checkpointInput = value;
            return this;
        }

        /** Registers application data into every checkpoint: the same on every rank (e.g. an accumulated scalar). */
        public Builder<D> register(Snapshotable value) {
            registered.add(Objects.requireNonNull(value, "value"));
            return this;
        }

        /** When checkpoints are taken (default: as {@code SNAPSHOT_EVERY} says). */
        public Builder<D> checkpointCondition(CheckpointCondition value) {
            this.condition = Objects.requireNonNull(value, "condition");
            return this;
        }

        /** When checkpoints are taken, as a schedule: every N steps, every T, or adaptive (default: {@code SNAPSHOT_EVERY}). */
        public Builder<D> checkpointEvery(Schedule value) {
            return checkpointCondition(CheckpointCondition.of(value));
        }

        /** The application's settings, fingerprinted into every disk line (a line of other settings is never restored). */
        public Builder<D> settings(Map<String, ?> value) {
            this.settings = Map.copyOf(value);
            return this;
        }

        /** The parameters (default: the launcher's parameter file and {@code IRONLOOP_<KEY>} variables). */
        public Builder<D> parameters(Parameters value) {
            this.parameters = Objects.requireNonNull(value, "parameters");
            return this;
        }

        /** Runs in this group instead of joining one. */
        public Builder<D> group(ProcessGroup value) {
            this.group = Objects.requireNonNull(value, "group");
            return this;
        }

        /** Receives the runtime's events (checkpoints, recoveries), on the application's thread. */
        public Builder<D> subscribe(Consumer<? super RuntimeEvent> subscriber) {
            subscribers.add(Objects.requireNonNull(subscriber, "subscriber"));
            return this;
        }

        /**
         * Joins the group, creates and initialises this rank's parts, resumes from the newest disk line complete for
         * every part if there is one, and takes the first checkpoint.
         */
        public Skeleton<D> start() {
            return new Skeleton<>(this);
        }
    }
}
