package io.ironloop.launcher;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Routes this process's SIGINT and SIGTERM to a {@link Launcher} instead of the JVM's default shutdown,
 * so that the launcher can forward them to its ranks, wait for them to save and exit, and return 130 /
 * 143 itself. {@link #close()} restores the previous handlers. Uses {@code sun.misc.Signal}
 * (module {@code jdk.unsupported}); signals the JVM reserves (for example under {@code -Xrs}) are
 * reported on standard error and left alone.
 */
public final class SignalForwarding implements AutoCloseable {
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private SignalForwarding() {
    }

    /**
     * Installs the handlers.
     *
     * @param launcher the launcher that receives the signals
     * @return a handle that restores the previous handlers when closed
     */
    public static SignalForwarding install(Launcher launcher) {
        SignalForwarding f = new SignalForwarding();
        for (LauncherSignal s : LauncherSignal.values()) {
            Signal signal = new Signal(s.name());
            try {
                f.previous.add(Signal.handle(signal, sig -> launcher.deliver(s)));
                f.signals.add(signal);
            } catch (IllegalArgumentException e) {
                System.err.println("ironloop: warning: cannot handle " + s.signalName() + " (" + e.getMessage()
                        + "); it will not be forwarded to the ranks");
            }
        }
        return f;
    }

    /** Restores the handlers that were installed before. */
    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
        signals.clear();
        previous.clear();
    }
}
