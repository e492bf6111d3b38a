package io.ironloop.launcher;

import java.io.PrintStream;

/** The launcher's own messages, on its standard error, each prefixed with {@code ironloop: }. Thread-safe. */
final class LauncherLog {
    private final PrintStream err;

    LauncherLog(PrintStream err) {
        this.err = err;
    }

    void info(String message) {
        err.println("ironloop: " + message);
        err.flush();
    }

    void warn(String message) {
        err.println("ironloop: warning: " + message);
        err.flush();
    }

    void error(String message) {
        err.println("ironloop: error: " + message);
        err.flush();
    }
}
