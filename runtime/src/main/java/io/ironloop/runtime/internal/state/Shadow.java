package io.ironloop.runtime.internal.state;

import java.util.Objects;

import io.ironloop.core.CheckpointEngine;
import io.ironloop.format.Scope;
import io.ironloop.core.Snapshotable;

/**
 * One registered piece of application state and its <em>published</em> copy, which is what the engine
 * saves. {@link #publish()} copies the application's state into the copy at a consistent point (a task or
 * iteration boundary); a trigger firing later persists that copy, never state still being modified.
 * {@link #apply()} copies a restored copy back into the application's objects.
 *
 * <p>Not thread-safe: callers hold the lock of the engine the shadow is registered with.
 */
public abstract sealed class Shadow permits Shadow.ArrayShadow, Shadow.EntityShadow {
    private final String name;

    private Shadow(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** Shadows a primitive array (double, float, long, int, short, char, byte or boolean). */
    public static Shadow ofArray(String name, Object array) {
        Class<?> type = Objects.requireNonNull(array, name).getClass();
        if (!type.isArray() || !type.getComponentType().isPrimitive()) {
            throw new IllegalArgumentException(name + " is not a primitive array but " + type.getName());
        }
        return new ArrayShadow(name, array);
    }

    /** Shadows an entity through its serialised state. */
    public static Shadow ofEntity(String name, Snapshotable entity) {
        return new EntityShadow(name, Objects.requireNonNull(entity, name));
    }

    /** The registered name. */
    public final String name() {
        return name;
    }

    /** Copies the application's state into the published copy. */
    public abstract void publish();

    /** Copies the published (or just restored) copy into the application's state. */
    public abstract void apply();

    /** Registers the published copy with {@code engine}. */
    public abstract void protect(CheckpointEngine engine, Scope scope);

    static final class ArrayShadow extends Shadow {
        private final Object application;
        private final Object copy;
        private final int length;

        ArrayShadow(String name, Object application) {
            super(name);
            this.application = application;
            this.length = java.lang.reflect.Array.getLength(application);
            this.copy = java.lang.reflect.Array.newInstance(application.getClass().getComponentType(), length);
            publish();
        }

        @Override
        public void publish() {
            System.arraycopy(application, 0, copy, 0, length);
        }

        @Override
        public void apply() {
            System.arraycopy(copy, 0, application, 0, length);
        }

        @Override
        public void protect(CheckpointEngine engine, Scope scope) {
            String n = name();
            if (copy instanceof double[] a) {
                engine.protect(n, scope, a);
            } else if (copy instanceof float[] a) {
                engine.protect(n, scope, a);
            } else if (copy instanceof long[] a) {
                engine.protect(n, scope, a);
            } else if (copy instanceof int[] a) {
                engine.protect(n, scope, a);
            } else if (copy instanceof short[] a) {
                engine.protect(n, scope, a);
            } else if (copy instanceof char[] a) {
                engine.protect(n, scope, a);
            } else if (copy instanceof byte[] a) {
                engine.protect(n, scope, a);
            } else if (copy instanceof boolean[] a) {
                engine.protect(n, scope, a);
            } else {
                throw new IllegalStateException("unreachable: " + copy.getClass());
            }
        }
    }

    /**
     * An entity's published copy is the bytes of its last {@link Snapshotable#save}; the engine saves those bytes
     * and, once the line holding them is committed, calls {@link #swap()}, which this shadow forwards to the
     * entity only when that line holds the entity's newest save: an entity published again since then has
     * overwritten its writable buffer with a snapshot no committed line holds, and swapping would make that
     * uncommitted snapshot its read-only one.
     */
    static final class EntityShadow extends Shadow implements Snapshotable {
        private final Snapshotable entity;
        private final ByteArraySink published = new ByteArraySink();
        /** Saves of the entity ({@link #publish()} calls) so far; identifies the bytes in {@link #published}. */
        private long saves;
        /** The saves whose bytes the engine wrote into lines not yet committed, oldest first (lines commit in order). */
        private final java.util.ArrayDeque<Long> written = new java.util.ArrayDeque<>();
        private byte[] restored;

        EntityShadow(String name, Snapshotable entity) {
            super(name);
            this.entity = entity;
            publish();
        }

        @Override
        public void publish() {
            published.reset();
            entity.save(published);
            restored = null;
            synchronized (written) {
                saves++;
            }
        }

        @Override
        public void apply() {
            if (restored != null) {
                entity.restore(new ByteArraySource(name(), restored));
                published.reset();
                published.putBytes(java.nio.ByteBuffer.wrap(restored));
                restored = null;
            }
        }

        @Override
        public void protect(CheckpointEngine engine, Scope scope) {
            engine.protect(name(), scope, this);
        }

        @Override
        public void save(io.ironloop.core.StateSink sink) {
            sink.putBytes(published.bytes());
            synchronized (written) {
                written.addLast(saves);
            }
        }

        @Override
        public void swap() {
            boolean newest;
            synchronized (written) {
                Long committed = written.pollFirst();
                newest = committed != null && committed == saves;
            }
            if (newest) {
                entity.swap();
            }
        }

        @Override
        public void restore(io.ironloop.core.StateSource source) {
            long n = source.remaining();
            if (n > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("the saved state of " + name() + " is " + n + " bytes, above 2 GiB");
            }
            byte[] b = new byte[(int) n];
            source.getBytes(java.nio.ByteBuffer.wrap(b));
            restored = b;
        }
    }
}
