package io.ironloop.launcher;

import io.ironloop.launcher.rank.RankBootstrap;

/** Human-readable descriptions of a rank JVM's exit status (Java reports death by signal N as 128 + N). */
final class ExitStatuses {
    private static final String[] SIGNALS = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
        "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};

    private ExitStatuses() {
    }

    /** The signal name for a status of 128 + N, or null when the status does not denote a signal. */
    static String signalOf(int status) {
        int n = status - 128;
        return n > 0 && n < SIGNALS.length ? SIGNALS[n] : null;
    }

    /** For example "status 137 (killed by SIGKILL)" or "status 0". */
    static String describe(int status) {
        String signal = signalOf(status);
        if (signal != null) {
            return "status " + status + " (" + signal + ")";
        }
        if (status == RankBootstrap.EXIT_LAUNCHER_LOST) {
            return "status " + status + " (lost the launcher)";
        }
        if (status == RankBootstrap.EXIT_BOOTSTRAP_FAILED) {
            return "status " + status + " (could not start: see its output)";
        }
        return "status " + status;
    }
}
