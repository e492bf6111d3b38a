package io.ironloop.sites;

import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.core.level.LineFallback;
import io.ironloop.core.level.RemoteLevel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The recovery function of H-RADIC (paper 004, Algorithm 3) on the data: the protector of a lost site places the
 * site checkpoint it holds — the lost ranks' committed lines — in the store of the site that takes them over (a
 * spare site, or its own site), with the same verified whole-line copy that brings lines back from a remote level
 * ({@link LineFallback}: data before commit record, every chunk's CRC32C checked at the target, a damaged line
 * skipped). The ranks then resume from those lines through the usual restart path: discover, agree on the newest
 * line every rank holds, restore. Where the ranks run is the table's business ({@link Topology#replace}).
 */
public final class SiteRecovery {
    private SiteRecovery() {
    }

    /**
     * What was placed.
     *
     * @param series the series placed
     * @param lines how many lines were copied
     * @param newestIteration the lowest, over the series, of the newest iteration placed: the site checkpoint's
     *     iteration (−1 when nothing was placed)
     */
    public record Placed(List<String> series, int lines, long newestIteration) {
        /** Copies the list. */
        public Placed {
            series = List.copyOf(series);
        }
    }

    /**
     * Copies every series of {@code held} that {@code target} lacks (or holds older lines of) to {@code target}.
     *
     * @param held the copies of the lost site's lines this protector keeps
     * @param target the store of the site taking over
     * @param move the table's move (names the lost site in the log)
     * @throws IOException if the held store cannot be listed, or a series the held store has lines of ends with no
     *     committed line at the target (the target failed or went away during the copy): a placement that placed
     *     nothing is never reported as done
     */
    public static Placed place(Store held, Store target, Topology.Move move) throws IOException {
        RemoteLevel level = new RemoteLevel("site", held, Integer.MAX_VALUE); // not closed: the caller owns the held store
        StoreCatalog heldLines = StoreCatalog.of(held);
        StoreCatalog targetLines = StoreCatalog.of(target);
        List<String> series = new ArrayList<>();
        int lines = 0;
        long newest = Long.MAX_VALUE;
        for (String s : held.listSeries()) {
            LineFallback.Fetched f = LineFallback.fetchMissing(target, List.of(level), s);
            // the copy counts damaged lines as skipped and goes on; a target that died mid-copy looks the same, so ask
            // the target (which throws when it is gone) whether it now holds a line of a series the held store has
            if (!heldLines.lines(s).isEmpty() && targetLines.lines(s).isEmpty()) {
                throw new IOException("the site checkpoint of " + s + " (site " + move.failed() + ") could not be placed on "
                        + move.target() + " (" + target.location() + "): " + f.skipped());
            }
            if (f.lines().isEmpty()) {
                continue;
            }
            series.add(s);
            lines += f.lines().size();
            newest = Math.min(newest, f.lines().stream().mapToLong(LineInfo::iteration).max().orElse(-1));
        }
        return new Placed(series, lines, series.isEmpty() ? -1 : newest);
    }
}
