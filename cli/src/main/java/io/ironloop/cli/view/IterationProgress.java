package io.ironloop.cli.view;

import io.ironloop.launcher.TimelineEvent;
import java.util.function.Consumer;

/**
 * Moves a {@link ProgressBar} with a supervised job: its total is the last iteration the ranks declare
 * ({@code plan}), its position the newest iteration rank 0 reports in the current attempt (it goes back after a
 * relaunch or an online recovery to where the job resumed). A timeline listener; fast, never throws.
 */
public final class IterationProgress implements Consumer<TimelineEvent> {
    private final ProgressBar bar;

    /** Follows the job on {@code bar}. */
    public IterationProgress(ProgressBar bar) {
        this.bar = bar;
    }

    @Override
    public void accept(TimelineEvent e) {
        if (e.source() != TimelineEvent.Source.RANK || e.rank() != 0) {
            return;
        }
        switch (e.type()) {
            case "plan" -> e.longField("iterations").ifPresent(bar::total);
            case "iteration", "restored", "recovered" -> e.longField("iteration").ifPresent(bar::done);
            default -> {
                // not progress
            }
        }
    }
}
