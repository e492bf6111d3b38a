package io.ironloop.runtime.internal.state;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.format.Scope;

/**
 * The registered pieces of one kind of state (global or local), in registration order, each protected with the
 * engine of that state when this rank has one.
 *
 * <p>Not thread-safe: its owner ({@link GlobalState}, {@link LocalState}) holds its lock around every call.
 */
final class Registry {
    private final Map<String, Shadow> shadows = new LinkedHashMap<>();
    private final CheckpointEngine engine;
    private final Scope scope;

    /** @param engine the engine saving this state on this rank, or null when this rank saves none */
    Registry(CheckpointEngine engine, Scope scope) {
        this.engine = engine;
        this.scope = scope;
    }

    boolean contains(String name) {
        return shadows.containsKey(name);
    }

    void register(Shadow shadow) {
        shadows.put(shadow.name(), shadow);
        if (engine != null) {
            shadow.protect(engine, scope);
        }
    }

    boolean unregister(String name) {
        if (shadows.remove(name) == null) {
            return false;
        }
        if (engine != null) {
            engine.unprotect(name);
        }
        return true;
    }

    /** Copies every registered object into its published copy. */
    void publish() {
        shadows.values().forEach(Shadow::publish);
    }

    Collection<Shadow> shadows() {
        return shadows.values();
    }
}
