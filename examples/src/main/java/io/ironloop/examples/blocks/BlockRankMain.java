package io.ironloop.examples.blocks;

import io.ironloop.ConfigurationException;
import io.ironloop.examples.ResultDigest;
import io.ironloop.examples.RowDigest;
import io.ironloop.group.ProcessExcludedException;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.runtime.blocks.Block;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.blocks.RecoveryFailedException;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvents;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Function;

/**
 * One rank of a block example under {@code ironloop run}: joins the job's group through a {@link BlockLoop}
 * (parameters from the launcher), runs the example's steps, recovering inside the job when a rank dies, and
 * prints {@code result sha256=<hex>} ({@link BlockLoop#digest()}) on standard output from the current rank 0
 * only. Progress goes to standard error.
 *
 * <p>Exit status: 0 done; 1 the job cannot go on (online recovery impossible, or a rank failed where the loop
 * does not recover, e.g. while the group forms): one line on standard error says which, and the supervisor may
 * relaunch the job, which resumes from the newest disk line; 2 usage or configuration error.
 */
public final class BlockRankMain {
    private final PrintStream out;
    private final PrintStream err;

    /** A runner printing to {@code out} (the result line) and {@code err} (progress and errors). */
    public BlockRankMain(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * The entry point of a rank program: parses {@code args} ({@link BlockRankOptions}), builds the example
     * and runs it; exits the JVM with the status when it is not 0.
     *
     * @param program the program's class name, for the usage line
     * @param args the command line
     * @param examples builds the example for the options; an {@link IllegalArgumentException} is a usage error
     */
    public static void main(String program, String[] args, Function<BlockRankOptions, ? extends BlockExample<?>> examples) {
        BlockExample<?> example;
        BlockRankOptions options;
        try {
            options = BlockRankOptions.parse(args);
            example = examples.apply(options);
        } catch (IllegalArgumentException e) {
            System.err.println(program + ": " + e.getMessage());
            System.err.println("usage: " + program + " " + BlockRankOptions.USAGE);
            System.exit(2);
            return;
        }
        int status = new BlockRankMain(System.out, System.err).run(example, options);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs {@code example} as this process's rank of the job.
     *
     * @param options the pause after every step (never changes the result) and the rehearsed deaths
     * @return the exit status
     */
    public <B extends Block> int run(BlockExample<B> example, BlockRankOptions options) {
        String name = example.name();
        long paceMillis = options.paceMillis();
        RuntimeEvents reports = RuntimeEvents.withProvidedSubscribers(() -> 0); // for errors caught here: the launcher's
        long start = System.nanoTime();
        int worldRank = Integer.getInteger("ironloop.rank", -1); // the launcher names every rank JVM so
        BlockLoop.Builder<B> builder = BlockLoop.builder(example.layout(), example::create).settings(example.settings());
        SnapshotCosts costs = new SnapshotCosts();
        builder.subscribe(costs);
        options.deaths().forEach(d -> builder.subscribe(d.watcher(() -> worldRank)));
        try (BlockLoop<B> loop = builder.start()) {
            boolean leader = loop.group().rank() == 0;
            if (leader) {
                err.printf(Locale.ROOT, "%s: %s on %d ranks, %d blocks, memory factor x%.2f%s%n", name, example.describe(),
                        loop.group().size(), example.layout().blockCount(), loop.memoryFactor(),
                        loop.iteration() > 0 ? ", resumed at step " + loop.iteration() : "");
            }
            loop.run(example.steps(), step -> {
                example.step(step);
                pause(paceMillis);
            });
            String digest = example.digestsRows() ? RowDigest.of(loop.group(), rows(example, loop)) : loop.digest();
            String summary = example.summary(loop::sum);
            if (loop.group().rank() == 0) { // after a loss of rank 0, the new rank 0 reports
                err.printf(Locale.ROOT, "%s: %d steps, %s, %d online recoveries here, %d snapshots committed, %.2f s%s%n", name,
                        example.steps(), summary, loop.onlineRecoveries(), loop.snapshotsCommitted(), (System.nanoTime() - start) / 1e9,
                        costs);
                out.println(ResultDigest.LINE_PREFIX + digest);
            }
            return 0;
        } catch (RecoveryFailedException e) {
            reports.publish(new RuntimeEvent.ApplicationFailed(e)); // a relaunch can help: it resumes from the newest disk line
            err.println(name + ": cannot recover inside the job (lost ranks " + e.lostWorldRanks() + "): " + e.getMessage());
            return 1;
        } catch (ProcessExcludedException e) {
            // stopped or starved past detection: the others went on without this rank, which must not continue
            err.println(name + ": " + e.getMessage());
            return 1;
        } catch (ProcessFailedException e) {
            // a failure the loop cannot recover from inside, e.g. while the group forms at start
            err.println(name + ": rank" + (e.failedRanks().size() > 1 ? "s " : " ") + e.failedRanks() + " failed where the loop"
                    + " cannot recover inside the job; exiting so that the supervisor relaunches the job from its disk lines");
            return 1;
        } catch (ConfigurationException e) {
            reports.publish(new RuntimeEvent.ApplicationFailed(e)); // tells the supervisor that restarting cannot help
            err.println(name + ": " + e.getMessage());
            return 2;
        }
    }

    private static <B extends Block> java.util.Map<Integer, double[]> rows(BlockExample<B> example, BlockLoop<B> loop) {
        java.util.Map<Integer, double[]> rows = new java.util.TreeMap<>();
        loop.blocks().forEach(b -> rows.putAll(example.resultRows(b)));
        return rows;
    }

    /**
     * What this rank's snapshots cost its loop: the capture (the only part on the loop's thread) and the wait at
     * the handshake, in total, printed after the snapshot count ({@code ironloop bench overhead} reads them).
     */
    private static final class SnapshotCosts implements java.util.function.Consumer<RuntimeEvent> {
        private long captures;
        private long captureNanos;
        private long handshakes;
        private long handshakeNanos;

        @Override
        public void accept(RuntimeEvent e) {
            if (e instanceof RuntimeEvent.Snapshotted s) {
                captures++;
                captureNanos += s.blocking().toNanos();
            } else if (e instanceof RuntimeEvent.Handshake h) {
                handshakes++;
                handshakeNanos += h.waited().toNanos();
            }
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, ", capture %.3f s over %d snapshots, handshake wait %.3f s over %d handshakes",
                    captureNanos / 1e9, captures, handshakeNanos / 1e9, handshakes);
        }
    }

    private static void pause(long millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
