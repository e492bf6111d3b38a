package io.ironloop.examples.fwi;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import io.ironloop.ConfigurationException;
import io.ironloop.core.RestoredState;
import io.ironloop.group.ProcessFailedException;
import io.ironloop.runtime.Completion;
import io.ironloop.runtime.Ironloop;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.tasks.TaskPool;
import io.ironloop.runtime.tasks.TaskPoolListener;

/**
 * One rank of a distributed, fault-tolerant full-waveform inversion on Ironloop (DeLIA's case study):
 * run it with {@code ironloop run -n N [--restarts K] [--params FILE] -- io.ironloop.examples.fwi.FwiRank
 * [test|demo]}. Rank 0 prints the same {@code result sha256=<hex>} line as {@link FwiMain} for the same
 * size, whatever the number of ranks, the scheduler and the interruptions.
 *
 * <p>State. Global (identical on every rank, saved by rank 0 after each round as DeLIA's global data):
 * every array of {@link FwiState} — model, gradient, direction, trial model, misfits, line-search scalars,
 * counters, L-BFGS memory. Local (per rank, DeLIA's local data): the {@link ShotLedger}, the shots this rank
 * has finished and their misfits and gradients, published after every shot, so that a trigger (a
 * termination signal, or the failure of another rank seen by the heartbeat) saves every finished shot.
 *
 * <p>Recovery. The newest global line (if any, made under the same settings) is restored on every rank;
 * then every rank reads its share of the old ranks' newest local records ({@link Ironloop#readLocalRecords}),
 * and an allgather gives every rank all of them, whatever the number of ranks before and now. Shots of the
 * open round found there are not run again: rank 0 reports their number to the launcher
 * ({@code tasks-skipped}) and on standard error. A round's trial model is a deterministic function of the
 * settings and the round number, so a record is valid for its round whichever attempt made it. Records of
 * rounds after the restored one (the newest global line was lost with a killed rank 0, or found damaged) are
 * dropped: their shots are computed again when their round comes.
 *
 * <p>Each round: the not-yet-done shots run on the task pool (scheduler {@code WORKLOAD_SCHEDULER}); each
 * rank's new entries are exchanged by allgather; every rank reduces all shots in shot order and advances
 * L-BFGS identically ({@link FwiInversion#completeRound}); {@link Ironloop#saveGlobal} ends the round.
 *
 * <p>Usage: {@code FwiRank [test|demo] [--max-iterations N] [--pace-ms MS] [--slow RANK:MS]}. The size
 * presets are {@link FwiConfig#test()} and {@link FwiConfig#demo()}; {@code --max-iterations} changes the
 * settings (and the result). {@code --pace-ms} adds a pause to every shot and {@code --slow} to every shot
 * of one rank, for rehearsing failures at chosen moments; neither changes a result bit. Progress goes to
 * standard error. Exit status: 0 done (or already complete), 1 another rank failed (after this rank saved
 * its local state; the supervisor restarts the job), 2 usage or configuration error.
 */
public final class FwiRank {
    private static final String GLOBAL_PREFIX = "fwi.";
    private static final String ROUNDS = "ledger.rounds";
    private static final String MISFITS = "ledger.misfits";
    private static final String GRADIENTS = "ledger.gradients";

    private final Options options;
    private final PrintStream err = System.err;

    private FwiRank(Options options) {
        this.options = options;
    }

    /**
     * Entry point of one rank.
     *
     * @param args {@code [test|demo] [--max-iterations N] [--pace-ms MS] [--slow RANK:MS]}
     */
    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("fwi: " + e.getMessage());
            System.err.println("usage: FwiRank [test|demo] [--max-iterations N] [--pace-ms MS] [--slow RANK:MS]");
            System.exit(2);
            return;
        }
        int status = new FwiRank(options).run();
        if (status != 0) {
            System.exit(status);
        }
    }

    private int run() {
        FwiConfig config = options.config();
        Progress progress = new Progress();
        try (Ironloop ft = Ironloop.builder().settings(config.settings()).subscribe(progress).start()) {
            if (ft.completion().isPresent()) {
                reportCompleted(ft, ft.completion().get());
                return 0;
            }
            invert(ft, config);
            return 0;
        } catch (ProcessFailedException e) {
            // close() has waited for the failure-triggered save: say what it did, never more
            err.println("fwi: rank" + (e.failedRanks().size() > 1 ? "s " : " ") + e.failedRanks() + " failed; "
                    + (progress.savedAfterFailure ? "this rank's finished shots are saved"
                            : "this rank's shots finished since its last local line are not saved (see the messages above)")
                    + "; exiting so that the supervisor restarts the job");
            return 1;
        } catch (ConfigurationException e) {
            err.println("fwi: " + e.getMessage());
            return 2;
        }
    }

    private void reportCompleted(Ironloop ft, Completion c) {
        err.printf(Locale.ROOT, "fwi rank %d: already complete (job %s, %d rounds, finished %s) in %s: reporting its"
                + " result; set FRESH=true to start over%n", ft.rank(), c.jobId(), c.iterations(), c.completedAt(), ft.folder());
        if (ft.rank() == 0) {
            System.out.println(c.result());
        }
    }

    private void invert(Ironloop ft, FwiConfig config) {
        int rank = ft.rank();
        FwiProblem problem = new FwiProblem(config);
        FwiInversion inversion = new FwiInversion(problem);
        ShotLedger ledger = inversion.newLedger();
        inversion.state().arrays().forEach((name, array) -> ft.registerGlobal(GLOBAL_PREFIX + name, array));
        ft.registerLocal(ROUNDS, ledger.rounds());
        ft.registerLocal(MISFITS, ledger.misfits());
        ft.registerLocal(GRADIENTS, ledger.gradients());
        if (ft.canRecoverGlobal()) {
            ft.readGlobal();
            log(rank, "resumed at round %d (iteration %d, %s) from %s", inversion.round(), inversion.state().iteration(),
                    inversion.state().phase(), ft.folder());
        } else {
            log(rank, "fwi %s on %d ranks, %s: %d x %d cells, %d shots, %d iterations; checkpoints in %s", options.size(),
                    ft.size(), ft.scheduler(), config.nx(), config.nz(), config.shots(), config.maxIterations(), ft.folder());
        }
        mergeRecords(ft, ledger, problem);
        int dropped = ledger.forgetAfter(inversion.round());
        if (dropped > 0) {
            log(rank, "round %d: %d recorded shots belong to a later round (the global state was restored from an older"
                    + " line): they are computed again", inversion.round(), dropped);
        }
        ft.startHeartbeatMonitoring();
        // one saveGlobal per round: a --fail past the most rounds there can be is a usage error at once
        ft.plan(inversion.maxRounds());
        long start = System.nanoTime();
        try (TaskPool pool = TaskPool.create(ft.group(), ft.scheduler(), new StealReporter(ft))) {
            while (!inversion.isFinished()) {
                long round = inversion.round();
                long roundStart = System.nanoTime();
                BitSet done = new BitSet(problem.shots());
                IntStream.range(0, problem.shots()).filter(s -> ledger.isDone(round, s)).forEach(done::set);
                if (!done.isEmpty() && rank == 0) {
                    ft.report("tasks-skipped", Map.of("count", done.cardinality()));
                    log(rank, "round %d: skipping %d of %d shots finished before the restart", round, done.cardinality(),
                            problem.shots());
                }
                List<Integer> mine = new ArrayList<>();
                pool.runRound(round, problem.shots(), done, shot -> {
                    pause(rank);
                    ledger.record(round, inversion.computeShot(shot));
                    mine.add(shot);
                    ft.saveLocal();
                });
                for (byte[] packet : ft.group().allgather(LedgerPackets.encode(ledger, mine))) {
                    LedgerPackets.mergeInto(ledger, packet);
                }
                boolean accepted = inversion.completeRound(ledger);
                ft.saveGlobal();
                double[] misfits = inversion.state().misfitHistory();
                log(rank, "round %d: %s, iteration %d, misfit %.6g, %d shots here, %.2f s", round,
                        accepted ? "accepted" : "backtracked", inversion.state().iteration(), misfits[misfits.length - 1],
                        mine.size(), (System.nanoTime() - roundStart) / 1e9);
            }
        }
        String result = inversion.resultLine();
        ft.complete(result);
        log(rank, "%s after %d iterations in %d rounds, %.2f s in this attempt", inversion.state().phase(),
                inversion.state().iteration(), inversion.round(), (System.nanoTime() - start) / 1e9);
        if (rank == 0) {
            System.out.println(result);
        }
    }

    /**
     * Gives every rank every shot the ranks of the previous run had finished: each rank reads its share of the
     * old local records, and an allgather joins them. Collective.
     */
    private void mergeRecords(Ironloop ft, ShotLedger ledger, FwiProblem problem) {
        ShotLedger found = new ShotLedger(problem.shots(), problem.modelSize());
        for (RestoredState record : ft.readLocalRecords()) {
            ShotLedger old = new ShotLedger(problem.shots(), problem.modelSize());
            long[] rounds = record.longs(ROUNDS);
            double[] misfits = record.doubles(MISFITS);
            double[] gradients = record.doubles(GRADIENTS);
            if (rounds.length != old.rounds().length || misfits.length != old.misfits().length
                    || gradients.length != old.gradients().length) {
                throw new IllegalStateException("the local record " + record.line().series() + "/" + record.line().dataFile()
                        + " does not fit this problem's sizes although its settings match");
            }
            System.arraycopy(rounds, 0, old.rounds(), 0, rounds.length);
            System.arraycopy(misfits, 0, old.misfits(), 0, misfits.length);
            System.arraycopy(gradients, 0, old.gradients(), 0, gradients.length);
            found.mergeFrom(old);
        }
        List<Integer> all = IntStream.range(0, problem.shots()).boxed().toList();
        for (byte[] packet : ft.group().allgather(LedgerPackets.encode(found, all))) {
            LedgerPackets.mergeInto(ledger, packet);
        }
    }

    private void pause(int rank) {
        long ms = options.paceMillis() + (rank == options.slowRank() ? options.slowMillis() : 0);
        if (ms > 0) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void log(int rank, String format, Object... args) {
        if (rank == 0) {
            err.println(String.format(Locale.ROOT, format, args));
        }
    }

    /** Runtime events worth a line on standard error (the launcher's timeline gets them from the runtime itself). */
    private final class Progress implements Consumer<RuntimeEvent> {
        /** Set when the local save triggered by another rank's failure succeeded. */
        private volatile boolean savedAfterFailure;

        @Override
        public void accept(RuntimeEvent event) {
            if (event instanceof RuntimeEvent.FailureSaved) {
                savedAfterFailure = true;
            } else if (event instanceof RuntimeEvent.SettingsChanged c) {
                err.println("fwi: the settings changed since the newest checkpoint (settings fingerprint " + c.savedFingerprint()
                        + " there, " + c.currentFingerprint() + " now): starting fresh; the old checkpoints are kept");
            }
        }
    }

    /** Reports work stealing to the launcher's timeline ({@code tasks-stolen}: round, from, count, tasks). */
    private record StealReporter(Ironloop ft) implements TaskPoolListener {
        @Override
        public void tasksStolen(long round, int fromRank, List<Integer> tasks) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("round", round);
            fields.put("from", fromRank);
            fields.put("count", tasks.size());
            fields.put("tasks", tasks);
            ft.report("tasks-stolen", fields);
        }
    }

    /** The command line. */
    record Options(String size, Integer maxIterations, long paceMillis, int slowRank, long slowMillis) {
        static Options parse(String[] args) {
            String size = "demo";
            Integer maxIterations = null;
            long pace = 0;
            int slowRank = -1;
            long slow = 0;
            boolean sized = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "test", "demo" -> {
                        if (sized) {
                            throw new IllegalArgumentException("give one size, test or demo");
                        }
                        sized = true;
                        size = a;
                    }
                    case "--max-iterations" -> maxIterations = (int) number(a, value(args, ++i, a), 1);
                    case "--pace-ms" -> pace = number(a, value(args, ++i, a), 0);
                    case "--slow" -> {
                        String v = value(args, ++i, a);
                        String[] p = v.split(":", -1);
                        if (p.length != 2) {
                            throw new IllegalArgumentException("--slow " + v + ": expected RANK:MS, e.g. 1:200");
                        }
                        slowRank = (int) number(a, p[0], 0);
                        slow = number(a, p[1], 0);
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
                }
            }
            return new Options(size, maxIterations, pace, slowRank, slow);
        }

        FwiConfig config() {
            FwiConfig c = size.equals("test") ? FwiConfig.test() : FwiConfig.demo();
            return maxIterations == null ? c : c.toBuilder().maxIterations(maxIterations).build();
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        private static long number(String option, String text, long min) {
            try {
                long v = Long.parseLong(text.strip());
                if (v < min || v > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException(option + " " + text + ": must be between " + min + " and "
                            + Integer.MAX_VALUE);
                }
                return v;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " '" + text + "' is not a whole number", e);
            }
        }
    }
}
