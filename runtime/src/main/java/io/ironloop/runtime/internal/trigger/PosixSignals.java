package io.ironloop.runtime.internal.trigger;

import io.ironloop.ConfigurationException;
import io.ironloop.runtime.trigger.TerminationSignal;
import io.ironloop.runtime.trigger.TriggerKeys;
import java.util.function.IntConsumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The one place that touches {@code sun.misc.Signal} (module {@code jdk.unsupported}), the only JDK API that
 * handles {@code SIGTERM} without ending the JVM at once.
 *
 * <p>The JDK runs each handler call on a new thread, so a handler that returns quickly never delays the
 * next signal.
 */
final class PosixSignals {

    private PosixSignals() {
    }

    /** An installed handler and what it replaced. */
    record Installed(TerminationSignal signal, int number, Object previous) {
    }

    /**
     * Installs {@code onSignal} for {@code signal}; it receives the platform's signal number.
     *
     * @throws ConfigurationException when the JVM refuses the signal (unknown on this platform, or reserved,
     *     as {@code TERM} and {@code INT} are under {@code -Xrs})
     */
    static Installed install(TerminationSignal signal, IntConsumer onSignal) {
        Signal s;
        try {
            s = new Signal(signal.name());
        } catch (IllegalArgumentException e) {
            throw refused(signal, e);
        }
        SignalHandler handler = received -> onSignal.accept(received.getNumber());
        try {
            SignalHandler previous = Signal.handle(s, handler);
            return new Installed(signal, s.getNumber(), previous);
        } catch (IllegalArgumentException e) {
            throw refused(signal, e);
        }
    }

    /** Puts back the handler that {@link #install} replaced. */
    static void restore(Installed installed) {
        Signal.handle(new Signal(installed.signal().name()), (SignalHandler) installed.previous());
    }

    private static ConfigurationException refused(TerminationSignal signal, IllegalArgumentException e) {
        return new ConfigurationException(TriggerKeys.TRIGGER_SIGNALS.name() + " includes " + signal + ", but this JVM cannot handle SIG"
                + signal + " (" + e.getMessage() + "): remove it from " + TriggerKeys.TRIGGER_SIGNALS.name()
                + (signal == TerminationSignal.TERM || signal == TerminationSignal.INT ? ", or start the JVM without -Xrs" : ""), e);
    }
}
