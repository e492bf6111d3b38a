package io.ironloop.examples.blocks;

import io.ironloop.group.launch.LauncherLink;
import io.ironloop.runtime.event.RuntimeEvent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Forwards a block loop's events to the launcher: every iteration (where {@code --fail R@I} strikes, so a
 * fault lands at the same point of the computation however fast the machine is), committed disk lines,
 * restores, the protection scheme and recoveries inside the job for the supervisor and the timeline.
 * Outside the launcher the link is a no-op.
 *
 * <p>Runs on the application's thread; never throws for an event it does not know.
 */
final class LauncherProgress implements Consumer<RuntimeEvent> {
    private final LauncherLink launcher;

    LauncherProgress(LauncherLink launcher) {
        this.launcher = launcher;
    }

    @Override
    public void accept(RuntimeEvent event) {
        if (event instanceof RuntimeEvent.IterationStarted e) {
            launcher.iteration(e.iteration());
        } else if (event instanceof RuntimeEvent.Saved e && e.level().equals("disk")) {
            // only disk lines, what a relaunch resumes from: the in-memory ones come every few steps on every rank
            launcher.saved(e.iteration(), e.level());
        } else if (event instanceof RuntimeEvent.Restored e) {
            launcher.restored(e.iteration());
        } else if (event instanceof RuntimeEvent.OnlineProtection e) {
            // tells the supervisor that this job recovers a lost rank inside itself
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("levels", e.levels());
            fields.put("memory_factor", e.memoryFactor());
            fields.put("spares", e.spares());
            launcher.event("online-protection", fields);
        } else if (event instanceof RuntimeEvent.RecoveredOnline e) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("lost", e.lostWorldRanks().stream().sorted().toList());
            fields.put("iteration", e.iteration());
            fields.put("source", e.source().name().toLowerCase(java.util.Locale.ROOT));
            fields.put("spares_used", e.sparesUsed());
            fields.put("detect_s", seconds(e.detect()));
            fields.put("shrink_s", seconds(e.shrink()));
            fields.put("restore_s", seconds(e.restore()));
            fields.put("rebalance_s", seconds(e.rebalance()));
            launcher.event("recovered-online", fields);
        }
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
