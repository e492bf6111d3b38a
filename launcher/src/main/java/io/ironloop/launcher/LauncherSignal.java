package io.ironloop.launcher;

/** A signal the launcher handles itself and forwards to its ranks, with the exit status it then returns. */
public enum LauncherSignal {
    /** SIGINT (Ctrl-C): forwarded as SIGINT; the launcher exits 130. A second one kills the ranks at once. */
    INT(2, 130),
    /** SIGTERM (schedulers, {@code kill}): forwarded as SIGTERM; the launcher exits 143. */
    TERM(15, 143);

    private final int number;
    private final int exitStatus;

    LauncherSignal(int number, int exitStatus) {
        this.number = number;
        this.exitStatus = exitStatus;
    }

    /** The POSIX signal number. */
    public int number() {
        return number;
    }

    /** The launcher's exit status after this signal (128 + number). */
    public int exitStatus() {
        return exitStatus;
    }

    /** The conventional name, e.g. {@code SIGTERM}. */
    public String signalName() {
        return "SIG" + name();
    }
}
