package io.ironloop.launcher.rank;

/**
 * The test ranks' way to send raw control messages (iterations, saves, recovery reports) as a runtime would:
 * this process's link, opened by {@link RankBootstrap}, or one that drops everything outside the launcher.
 */
public final class ThisRank {
    private ThisRank() {
    }

    /** This process's link to its launcher. */
    public static LauncherLink link() {
        return LauncherSubscriberProvider.link().orElseGet(() -> LauncherLink.recording(m -> { }));
    }
}
