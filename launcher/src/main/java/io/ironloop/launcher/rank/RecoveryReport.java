package io.ironloop.launcher.rank;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What the survivors of a loss report to the launcher once they recovered online, in the same JVMs: the
 * {@value LauncherLink#RECOVERED} event (see {@link LauncherLink#recovered}). Sent once per recovery, by
 * rank 0 of the shrunk group. Immutable.
 *
 * @param lost the world ranks lost, in increasing order
 * @param iteration the iteration the loop continues from (the committed snapshot's)
 * @param source where the lost ranks' state came from
 * @param spares how many spare ranks adopted lost ranks' work (0: the survivors took it over)
 * @param detect from the failure to the survivors' exception (failure detection)
 * @param shrink the agreement on the survivors and the new group
 * @param restore restoring the lost ranks' state from {@code source}
 * @param rebalance reassigning the lost ranks' work to survivors or spares
 */
public record RecoveryReport(List<Integer> lost, long iteration, Source source, int spares, Duration detect,
        Duration shrink, Duration restore, Duration rebalance) {

    /** Where a recovery restored the lost ranks' state from. */
    public enum Source {
        /** In-memory copies held by partner ranks. */
        MEMORY,
        /** The newest complete line on disk (redundancy in memory was exhausted). */
        DISK;

        /** The name on the wire: {@code memory} or {@code disk}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Checks and copies the fields.
     *
     * @throws IllegalArgumentException if no rank was lost, a rank or count is negative, or a duration is negative
     */
    public RecoveryReport {
        lost = List.copyOf(lost);
        Objects.requireNonNull(source, "source");
        if (lost.isEmpty() || lost.stream().anyMatch(r -> r < 0)) {
            throw new IllegalArgumentException("a recovery names the world ranks lost (at least one, none negative): " + lost);
        }
        if (iteration < 0 || spares < 0) {
            throw new IllegalArgumentException("iteration " + iteration + " and spares " + spares + " must not be negative");
        }
        for (Duration d : List.of(detect, shrink, restore, rebalance)) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("a recovery phase cannot take negative time: " + d);
            }
        }
    }
}
