package io.ironloop.runtime.internal.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ironloop.IronloopException;
import io.ironloop.core.CheckpointEngine;
import io.ironloop.core.EngineConfig;
import io.ironloop.core.LineInfo;
import io.ironloop.core.NoIntactCheckpointException;
import io.ironloop.core.RestoredState;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.Store;
import io.ironloop.format.Scope;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.IncompatibleRestartException;
import io.ironloop.runtime.InconsistentRecoveryException;

/**
 * The recovery line of per-rank state, negotiated by every rank: the newest iteration at which every rank
 * has a local line and the global series a line (or the start, iteration 0), no later than the iteration
 * the global state resumed from. Every rank offers the iterations of its committed local lines (made under
 * the current settings) and each holder of a copy of the global state those of its global lines (a line in
 * either copy counts); one allgather gives every rank the same
 * offers, so every rank reaches the same verdict — restore at that iteration, start per-rank state over
 * (nothing was restored globally), or refuse ({@link InconsistentRecoveryException}, or
 * {@link IncompatibleRestartException} for lines of a job of another size) — and nobody restores state
 * from an iteration that another rank lacks or that the loop then redoes.
 *
 * <p>Not thread-safe: the application thread calls it, collectively.
 */
public final class LocalRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRecovery.class);

    private LocalRecovery() {
    }

    /** One rank's offer: the world size of a line of another job size (or 0), its local and global line iterations. */
    private record Offer(int rank, int otherWorldSize, long[] local, long[] global) {
        byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(Integer.BYTES * 3 + Long.BYTES * (local.length + global.length));
            b.putInt(otherWorldSize).putInt(local.length).putInt(global.length);
            for (long i : local) {
                b.putLong(i);
            }
            for (long i : global) {
                b.putLong(i);
            }
            return b.array();
        }

        static Offer decode(int rank, byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            int other = b.getInt();
            long[] local = new long[b.getInt()];
            long[] global = new long[b.getInt()];
            for (int i = 0; i < local.length; i++) {
                local[i] = b.getLong();
            }
            for (int i = 0; i < global.length; i++) {
                global[i] = b.getLong();
            }
            return new Offer(rank, other, local, global);
        }

        String describe() {
            return "rank " + rank + ": " + (local.length == 0 ? "none" : java.util.Arrays.toString(local));
        }
    }

    /**
     * Negotiates the per-rank recovery line. Collective; the same answer on every rank.
     *
     * @param localLines this rank's committed local lines made under the current settings
     * @param globalLines the committed global lines under the current settings of this rank's copy (empty on a
     *     rank that holds none)
     * @param resumed the iteration the global state resumed from (0 when nothing was restored)
     * @param folder the checkpoint folder, for messages
     * @return the iteration to restore per-rank state at; empty when per-rank state starts over (consistently:
     *     nothing was restored and nothing is usable)
     * @throws IncompatibleRestartException on every rank, if some rank's lines were saved by a job of another size
     * @throws InconsistentRecoveryException on every rank, if the global state resumed from an iteration at
     *     which some rank has no per-rank state
     */
    public static OptionalLong negotiate(ProcessGroup group, List<LineInfo> localLines, List<LineInfo> globalLines, long resumed,
            Path folder) {
        int other = localLines.stream().mapToInt(LineInfo::worldSize).filter(w -> w != group.size()).findFirst().orElse(0);
        long[] local = localLines.stream().mapToLong(LineInfo::iteration).distinct().sorted().toArray();
        long[] global = globalLines.stream().mapToLong(LineInfo::iteration).distinct().sorted().toArray();
        byte[][] all = group.allgather(new Offer(group.rank(), other, local, global).encode());
        List<Offer> offers = new ArrayList<>();
        for (int r = 0; r < all.length; r++) {
            offers.add(Offer.decode(r, all[r]));
        }
        for (Offer o : offers) {
            if (o.otherWorldSize() != 0) {
                throw new IncompatibleRestartException("the local state of rank " + o.rank() + " in " + folder + " was saved by a job of "
                        + o.otherWorldSize() + " ranks; this job has " + group.size() + ". Per-rank state cannot be redistributed:"
                        + " restart with " + o.otherWorldSize() + " ranks, keep per-task records (readLocalRecords) instead, or"
                        + " start over with FRESH=true");
            }
        }
        TreeSet<Long> cut = new TreeSet<>();
        for (Offer o : offers) {
            for (long i : o.global()) {
                cut.add(i);
            }
        }
        long[] globalIterations = cut.stream().mapToLong(Long::longValue).toArray();
        if (resumed == 0) {
            cut.add(0L); // nothing global was restored: the start is the global state's line 0
        }
        cut.removeIf(i -> i > resumed);
        for (Offer o : offers) {
            TreeSet<Long> mine = new TreeSet<>();
            for (long i : o.local()) {
                mine.add(i);
            }
            cut.retainAll(mine);
        }
        boolean anyLine = offers.stream().anyMatch(o -> o.local().length > 0);
        if (!cut.isEmpty()) {
            return OptionalLong.of(cut.last());
        }
        String lines = String.join("; ", offers.stream().map(Offer::describe).toList());
        if (resumed == 0) {
            if (anyLine) {
                LOG.warn("rank {}: the run starts from iteration 0, so the per-rank state in {} ({}) is not restored; it starts over"
                        + " with the global state", group.rank(), folder, lines);
            }
            return OptionalLong.empty();
        }
        throw new InconsistentRecoveryException("the global state resumes from iteration " + resumed + " (global lines "
                + java.util.Arrays.toString(globalIterations) + ") but no iteration up to it has per-rank state on every"
                + " rank and a global line — local lines in " + folder + ": " + lines + ". Restoring them would mix iterations"
                + " and give wrong results. Per-rank state is saved with every global line once canRecoverLocal() is called;"
                + " a rank that died before its first one leaves nothing to restore. Start over with FRESH=true (or"
                + " ironloop run --fresh), or keep the state as per-task records (readLocalRecords) if it may be merged");
    }

    /**
     * The newest of {@code lines} at {@code iteration}.
     *
     * @throws IronloopException if there is none (any more)
     */
    public static LineInfo lineAt(List<LineInfo> lines, long iteration, String where) {
        return lines.stream().filter(l -> l.iteration() == iteration).reduce((a, b) -> b).orElseThrow(() -> new IronloopException(
                "no committed line at iteration " + iteration + " in " + where + (lines.isEmpty() ? "" : " of series "
                        + lines.get(0).series()) + " any more"));
    }

    /** The lines made under the settings with this fingerprint (all of them when empty: settings ignored). */
    public static List<LineInfo> madeUnder(java.util.Optional<String> fingerprint, List<LineInfo> lines) {
        return lines.stream().filter(l -> fingerprint.isEmpty() || l.settingsFingerprint().equals(fingerprint.get())).toList();
    }

    /**
     * Runs {@code step} on every rank and continues only if it succeeded everywhere. Collective.
     *
     * @param what what the step does, for the message ("restore …")
     * @throws RuntimeException the step's own exception on a rank where it failed; an {@link IronloopException}
     *     naming how many ranks failed on the others
     */
    public static void onEveryRank(ProcessGroup group, String what, Runnable step) {
        RuntimeException failure = null;
        try {
            step.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        long failed = group.allreduce(failure == null ? 0L : 1L, io.ironloop.group.ReduceOp.SUM);
        if (failure != null) {
            throw failure;
        }
        if (failed > 0) {
            throw new IronloopException(failed + " rank(s) could not " + what + " (see their messages); rank " + group.rank()
                    + " could, but does not continue alone");
        }
    }

    /**
     * Restores the line of {@code series} at {@code iteration} into {@code shadows} (and applies them), from a
     * copy of its files, so no other line of the series can be restored instead.
     *
     * @param settings the settings entry (name, bytes) every line carries
     * @throws IronloopException if the series has no committed line at that iteration or it cannot be read
     * @throws io.ironloop.core.CorruptCheckpointException if the line is damaged
     */
    public static LineInfo restoreAt(Store store, EngineConfig config, List<LineInfo> lines, long iteration, Scope scope,
            Collection<Shadow> shadows, String settingsName, byte[] settings) {
        LineInfo line = lineAt(lines, iteration, store.location());
        try {
            return restoreCopy(SeriesFiles.pack(store, SeriesFiles.filesOf(line)), config, scope, shadows, settingsName, settings,
                    () -> new IronloopException("the copy of " + line.dataFile() + " holds no line"));
        } catch (IOException e) {
            throw new IronloopException("cannot read " + store.location() + "/" + line.dataFile() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Restores the one line packed in {@code files} ({@link SeriesFiles#pack}) into {@code shadows} through an
     * engine over an in-memory store, verifying every checksum, and applies them.
     *
     * @throws IOException if the packed files are malformed
     */
    public static LineInfo restoreCopy(byte[] files, EngineConfig config, Scope scope, Collection<Shadow> shadows,
            String settingsName, byte[] settings, Supplier<RuntimeException> empty) throws IOException {
        try (Store mirror = Store.inMemory()) {
            SeriesFiles.unpack(files, mirror);
            try (CheckpointEngine engine = CheckpointEngine.open(config, mirror)) {
                engine.protect(settingsName, Scope.SETTINGS, settings);
                for (Shadow s : shadows) {
                    s.protect(engine, scope);
                }
                LineInfo line = engine.restore().orElseThrow(empty);
                shadows.forEach(Shadow::apply);
                return line;
            }
        }
    }

    /**
     * Per-task records: the newest intact local line under the current settings of every old rank's series
     * that falls to this rank (old rank q goes to rank q mod size), as new arrays, read from a copy of the
     * series. A series with no intact line is left out with a warning (its tasks are simply run again).
     */
    public static List<RestoredState> records(Store store, Path folder, ProcessGroup group, String fingerprint) {
        List<RestoredState> out = new ArrayList<>();
        try {
            for (String series : StoreCatalog.of(store).series()) {
                int rank = StoreCatalog.rankOf(series);
                if (rank < 0 || rank % group.size() != group.rank()) {
                    continue;
                }
                try (Store copy = Store.inMemory()) {
                    SeriesFiles.copySeries(store, series, copy);
                    try (CheckpointEngine reader = CheckpointEngine.open(EngineConfig.builder().series(series).build(), copy)) {
                        reader.read().filter(s -> s.line().settingsFingerprint().equals(fingerprint)).ifPresent(out::add);
                    } catch (NoIntactCheckpointException e) {
                        // a damaged record only costs its tasks, which are run again; it must not block the restart
                        LOG.warn("rank {}: no intact local line in {}/{} ({}); its tasks are run again", group.rank(), folder, series,
                                e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            throw new IronloopException("cannot read the local records in " + folder + ": " + e.getMessage(), e);
        }
        return out;
    }
}
