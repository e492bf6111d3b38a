package io.ironloop.examples.skeleton;

import io.ironloop.ConfigurationException;
import io.ironloop.IronloopException;
import io.ironloop.config.Parameters;
import io.ironloop.core.Schedule;
import io.ironloop.examples.ResultDigest;
import io.ironloop.examples.RowDigest;
import io.ironloop.examples.blocks.BlockRankOptions;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.blocks.BlockKeys;
import io.ironloop.runtime.blocks.BlockLoop;
import io.ironloop.runtime.skeleton.Box;
import io.ironloop.runtime.skeleton.DoubleDomain;
import io.ironloop.runtime.skeleton.Skeleton;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One rank of a {@link SkeletonApp} under {@code ironloop run}: builds the skeleton (input domain unregistered from
 * the checkpoints), runs it to the end and prints {@code result sha256=} ({@link RowDigest} of every part's result
 * rows) from rank 0. Options as the block examples ({@link BlockRankOptions}: size, steps, pace, rehearsed deaths).
 * Exit status: 0 done, 1 the job cannot go on here (a relaunch resumes from disk), 2 usage or configuration error.
 */
public final class SkeletonRankMain {
    private SkeletonRankMain() {
    }

    /**
     * The entry point of a rank program.
     *
     * @param program the program's class name, for messages
     * @param args {@link BlockRankOptions#USAGE}
     * @param apps the app for the options; an {@link IllegalArgumentException} is a usage error
     */
    public static <D extends DoubleDomain> void main(String program, String[] args, Function<BlockRankOptions, SkeletonApp<D>> apps) {
        BlockRankOptions o;
        SkeletonApp<D> app;
        try {
            o = BlockRankOptions.parse(args);
            app = apps.apply(o);
        } catch (IllegalArgumentException e) {
            System.err.println(program + ": " + e.getMessage() + "\nusage: " + program + " " + BlockRankOptions.USAGE);
            System.exit(2);
            return;
        }
        int worldRank = Integer.getInteger("ironloop.rank", -1);
        Skeleton.Builder<D> b = builder(app, o.paceMillis());
        o.deaths().forEach(d -> b.subscribe(d.watcher(() -> worldRank)));
        try (Skeleton<D> skeleton = b.start()) {
            skeleton.run();
            String digest = digest(app, skeleton);
            if (skeleton.group().rank() == 0) {
                System.out.println(ResultDigest.LINE_PREFIX + digest);
            }
        } catch (ConfigurationException e) {
            System.err.println(program + ": " + e.getMessage());
            System.exit(2);
        } catch (IronloopException e) {
            System.err.println(program + ": cannot go on inside the job (" + e.getMessage() + "); a relaunch resumes from disk");
            System.exit(1);
        }
    }

    /** The skeleton of {@code app}: its partition and communication, checkpoints without the input domain. */
    public static <D extends DoubleDomain> Skeleton.Builder<D> builder(SkeletonApp<D> app, long paceMillis) {
        return Skeleton.builder(app.domain(), app.parts(), app.partition(), paceMillis > 0 ? new Paced<>(app, paceMillis) : app)
                .communication(app.communication()).checkpointInput(false).settings(app.settings());
    }

    /** The result digest of a finished skeleton. Collective. */
    public static <D extends DoubleDomain> String digest(SkeletonApp<D> app, Skeleton<D> skeleton) {
        long last = app.begin();
        for (long s = app.begin(); s != app.end(); s = app.next(s)) {
            last = s;
        }
        Map<Integer, double[]> rows = new TreeMap<>();
        for (Map.Entry<Integer, D> e : skeleton.domains().entrySet()) {
            Box possessed = app.partition().possessed(e.getKey(), app.parts(), last);
            rows.put(possessed.lo(0), app.resultRows(e.getValue(), possessed));
        }
        return RowDigest.of(skeleton.group(), rows);
    }

    /** The failure-free result of {@code app} in this JVM (one rank, no disk): what every rank program must print. */
    public static <D extends DoubleDomain> String reference(SkeletonApp<D> app) {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.DISK_EVERY, Schedule.never());
        try (InJvmCluster cluster = InJvmCluster.open(app.name() + "-reference", 1);
                Skeleton<D> skeleton = builder(app, 0).parameters(p).group(cluster.group(0)).start()) {
            skeleton.run();
            return digest(app, skeleton);
        }
    }

    /** A kernel pausing after every calculation (rehearsals: never changes a result bit). */
    private record Paced<D extends DoubleDomain>(SkeletonApp<D> app, long millis) implements io.ironloop.runtime.skeleton.Kernel<D> {
        @Override
        public long begin() {
            return app.begin();
        }

        @Override
        public long end() {
            return app.end();
        }

        @Override
        public long next(long step) {
            return app.next(step);
        }

        @Override
        public void init(int part, D read, D write) {
            app.init(part, read, write);
        }

        @Override
        public void calculate(D read, D write, Box possessed, long step) {
            app.calculate(read, write, possessed, step);
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public boolean communicate(long step) {
            return app.communicate(step);
        }
    }
}
