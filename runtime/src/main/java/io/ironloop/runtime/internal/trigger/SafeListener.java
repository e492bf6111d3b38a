package io.ironloop.runtime.internal.trigger;

import io.ironloop.runtime.trigger.TriggerEvent;
import io.ironloop.runtime.trigger.TriggerListener;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Delivers events to a user listener and logs, rather than propagates, what it throws, so a save or exit is never stopped by it. */
final class SafeListener implements TriggerListener {
    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);
    private final TriggerListener delegate;

    private SafeListener(TriggerListener delegate) {
        this.delegate = delegate;
    }

    static TriggerListener wrap(TriggerListener listener) {
        Objects.requireNonNull(listener, "listener");
        return listener instanceof SafeListener ? listener : new SafeListener(listener);
    }

    @Override
    public void onEvent(TriggerEvent event) {
        try {
            delegate.onEvent(event);
        } catch (RuntimeException e) {
            LOG.warn("trigger listener {} threw on {}; listeners must not throw, the trigger carries on", delegate, event, e);
        }
    }
}
