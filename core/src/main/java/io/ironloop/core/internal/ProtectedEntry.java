package io.ironloop.core.internal;

import io.ironloop.ConfigurationException;
import io.ironloop.DirectMemory;
import io.ironloop.core.Snapshotable;
import io.ironloop.format.CheckpointReader;
import io.ironloop.format.ChunkSource;
import io.ironloop.format.CorruptCheckpointException;
import io.ironloop.format.ElementType;
import io.ironloop.format.EntryDescriptor;
import io.ironloop.format.Scope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One registered piece of state and its staging buffers (one per checkpoint that may be in flight). A staging
 * buffer is allocated by the first checkpoint that needs it, not at registration: a run pays for the copy's
 * memory and its zeroing only once it checkpoints (the engine checks at registration that the copies will fit
 * the direct-memory limit, so a scheme that cannot fit is still refused at start). A restore streams the
 * saved entry chunk by chunk straight into the live object (arrays, direct buffers) while each verified
 * chunk is still in cache; only entities, whose {@code restore} needs the whole state, go through staging.
 */
public abstract sealed class ProtectedEntry permits ProtectedEntry.ArrayEntry, ProtectedEntry.BufferEntry, ProtectedEntry.EntityEntry {
    private final String name;
    private final Scope scope;
    final ByteBuffer[] staging;

    ProtectedEntry(String name, Scope scope, int slots) {
        this.name = name;
        this.scope = scope;
        this.staging = new ByteBuffer[slots];
    }

    /** A primitive array (or a cell's one-element array). */
    public static ProtectedEntry array(String name, Scope scope, Object array, int slots) {
        return new ArrayEntry(name, scope, array, slots);
    }

    /** A direct buffer: its bytes from 0 to its limit. */
    public static ProtectedEntry buffer(String name, Scope scope, ByteBuffer buffer, int slots) {
        return new BufferEntry(name, scope, buffer, slots);
    }

    public static ProtectedEntry entity(String name, Scope scope, Snapshotable entity, int slots) {
        return new EntityEntry(name, scope, entity, slots);
    }

    public String name() {
        return name;
    }

    public Scope scope() {
        return scope;
    }

    public abstract ElementType type();

    /** The shape of the staged data in {@code slot}. */
    public abstract long[] shape(int slot);

    /** Copies the live state into staging {@code slot}; returns the staged bytes (position 0, limit = length). */
    public ByteBuffer stage(int slot) {
        if (staging[slot] == null) {
            staging[slot] = allocate(stagingBytes());
        }
        staging[slot] = copyState(staging[slot].clear());
        return staging[slot];
    }

    /** Bytes of one staging buffer as first allocated: the state's size (an entity's grows when it must). */
    public abstract long stagingBytes();

    /**
     * A copy of the live state in a new buffer, leaving the staging buffers alone (which a checkpoint in
     * flight may be reading): for fingerprinting settings at any time.
     */
    public ByteBuffer copyNow() {
        int capacity = staging[0] == null ? (int) stagingBytes() : staging[0].capacity();
        return copyState(ByteBuffer.allocate(Math.max(16, capacity)).order(ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * Copies the live state into {@code into} from position 0 and returns the buffer that holds it, flipped
     * (position 0, limit = length): {@code into} itself, or for an entity a larger one when it outgrew it.
     */
    abstract ByteBuffer copyState(ByteBuffer into);

    /**
     * The live state as a {@link ChunkSource} that reads it chunk by chunk without staging it, for a line written
     * while nobody changes the object ({@code CheckpointEngine.checkpointInPlace}); null when the state must be
     * copied first (an entity, whose {@code save} writes into a sink).
     */
    public ChunkSource inPlace() {
        return null;
    }

    /**
     * Tells the live object that the line holding the state it staged last is now committed: an entity
     * swaps its snapshot buffers (see {@link Snapshotable#swap()}); others do nothing.
     */
    public void committed() {
    }

    /** The bytes staged in {@code slot} by the last {@link #stage} (position 0, limit = length). */
    public ByteBuffer staged(int slot) {
        return staging[slot].duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Whether data of this type and shape can be restored into the live object. */
    public abstract boolean accepts(ElementType type, long[] shape);

    /**
     * Reads entry {@code saved} of {@code file} into the live object (see {@link EntryStream#read}): the
     * object only ever receives verified bytes, but a chunk that fails its check leaves it partly restored;
     * the caller then falls back to an older line, which overwrites it again.
     *
     * @param saved the entry's descriptor, which {@link #accepts} has approved
     * @throws CorruptCheckpointException when a chunk fails its check or the entry cannot be held
     * @throws IOException when the store fails
     */
    public void restoreFrom(CheckpointReader reader, String file, EntryDescriptor saved) throws IOException {
        begin(file, saved.header().byteLength());
        EntryStream.read(reader, file, saved, this::copyChunk);
        end();
    }

    /** Prepares to receive {@code length} bytes (an entity sizes its staging). */
    void begin(String file, long length) {
    }

    /** Copies one verified chunk, starting {@code offset} bytes into the entry, into the live object. */
    abstract void copyChunk(long offset, ByteBuffer chunk);

    /** Completes a restore once every chunk was copied. */
    void end() {
    }

    /** Refuses an entry larger than one staging buffer can hold. */
    public static void checkSize(String name, long bytes) {
        if (bytes > EntryStream.MAX_BUFFERED) {
            throw new IllegalArgumentException("a single protected entry is limited to 2 GiB; split '" + name + "': " + bytes + " bytes");
        }
    }

    static ByteBuffer allocate(long bytes) {
        checkSize("an entry", bytes);
        try {
            // allocateDirect zero-fills: the first checkpoint pays for touching the pages, the later ones only copy
            return ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
        } catch (OutOfMemoryError e) {
            throw new ConfigurationException(String.format("a staging copy of %d bytes does not fit the JVM's direct memory (limit %d "
                    + "bytes, %d in use): raise -XX:MaxDirectMemorySize (default: the maximum heap, -Xmx), lower MAX_IN_FLIGHT or "
                    + "protect less", bytes, DirectMemory.limit(), DirectMemory.used()), e);
        }
    }

    /** A primitive array. */
    static final class ArrayEntry extends ProtectedEntry {
        private final Object array;
        private final ElementType type;
        private final int length;

        ArrayEntry(String name, Scope scope, Object array, int slots) {
            super(name, scope, slots);
            this.array = array;
            this.type = typeOf(array);
            this.length = java.lang.reflect.Array.getLength(array);
        }

        @Override
        public long stagingBytes() {
            return (long) length * type.width();
        }

        static ElementType typeOf(Object array) {
            if (array instanceof double[]) {
                return ElementType.DOUBLE;
            } else if (array instanceof float[]) {
                return ElementType.FLOAT;
            } else if (array instanceof long[]) {
                return ElementType.LONG;
            } else if (array instanceof int[]) {
                return ElementType.INT;
            } else if (array instanceof short[]) {
                return ElementType.SHORT;
            } else if (array instanceof char[]) {
                return ElementType.CHAR;
            } else if (array instanceof byte[]) {
                return ElementType.BYTE;
            } else if (array instanceof boolean[]) {
                return ElementType.BOOLEAN;
            }
            throw new IllegalArgumentException("not a primitive array: " + array.getClass().getName());
        }

        @Override
        public ElementType type() {
            return type;
        }

        @Override
        public long[] shape(int slot) {
            return new long[] {length};
        }

        @Override
        ByteBuffer copyState(ByteBuffer b) {
            switch (type) {
                case DOUBLE -> b.asDoubleBuffer().put((double[]) array);
                case FLOAT -> b.asFloatBuffer().put((float[]) array);
                case LONG -> b.asLongBuffer().put((long[]) array);
                case INT -> b.asIntBuffer().put((int[]) array);
                case SHORT -> b.asShortBuffer().put((short[]) array);
                case CHAR -> b.asCharBuffer().put((char[]) array);
                case BYTE -> b.put((byte[]) array);
                case BOOLEAN -> {
                    boolean[] a = (boolean[]) array;
                    for (boolean v : a) {
                        b.put(v ? (byte) 1 : (byte) 0);
                    }
                }
                default -> throw new IllegalStateException(type.toString());
            }
            return b.position((int) ((long) length * type.width())).flip();
        }

        @Override
        public boolean accepts(ElementType t, long[] shape) {
            return t == type && shape.length == 1 && shape[0] == length;
        }

        @Override
        public ChunkSource inPlace() {
            return this::fillChunk;
        }

        /** The mirror of {@link #copyChunk}: copies the array's bytes from {@code offset} into {@code into}. */
        private void fillChunk(long offset, ByteBuffer into) {
            ByteBuffer b = into.order(ByteOrder.LITTLE_ENDIAN);
            int at = (int) (offset / type.width());
            int n = b.remaining() / type.width();
            switch (type) {
                case DOUBLE -> b.asDoubleBuffer().put((double[]) array, at, n);
                case FLOAT -> b.asFloatBuffer().put((float[]) array, at, n);
                case LONG -> b.asLongBuffer().put((long[]) array, at, n);
                case INT -> b.asIntBuffer().put((int[]) array, at, n);
                case SHORT -> b.asShortBuffer().put((short[]) array, at, n);
                case CHAR -> b.asCharBuffer().put((char[]) array, at, n);
                case BYTE -> b.put(b.position(), (byte[]) array, at, n);
                case BOOLEAN -> {
                    boolean[] a = (boolean[]) array;
                    for (int i = 0, p = b.position(); i < n; i++) {
                        b.put(p + i, a[at + i] ? (byte) 1 : (byte) 0);
                    }
                }
                default -> throw new IllegalStateException(type.toString());
            }
        }

        @Override
        void copyChunk(long offset, ByteBuffer chunk) {
            ByteBuffer b = chunk.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            int at = (int) (offset / type.width());
            int n = b.remaining() / type.width();
            switch (type) {
                case DOUBLE -> b.asDoubleBuffer().get((double[]) array, at, n);
                case FLOAT -> b.asFloatBuffer().get((float[]) array, at, n);
                case LONG -> b.asLongBuffer().get((long[]) array, at, n);
                case INT -> b.asIntBuffer().get((int[]) array, at, n);
                case SHORT -> b.asShortBuffer().get((short[]) array, at, n);
                case CHAR -> b.asCharBuffer().get((char[]) array, at, n);
                case BYTE -> b.get((byte[]) array, at, n);
                case BOOLEAN -> {
                    boolean[] a = (boolean[]) array;
                    for (int i = 0, p = b.position(); i < n; i++) {
                        a[at + i] = b.get(p + i) != 0;
                    }
                }
                default -> throw new IllegalStateException(type.toString());
            }
        }
    }

    /** A direct buffer, saved from 0 to its limit at registration. */
    static final class BufferEntry extends ProtectedEntry {
        private final ByteBuffer live;

        BufferEntry(String name, Scope scope, ByteBuffer live, int slots) {
            super(name, scope, slots);
            this.live = live;
        }

        @Override
        public long stagingBytes() {
            return live.limit();
        }

        @Override
        public ElementType type() {
            return ElementType.OPAQUE;
        }

        @Override
        public long[] shape(int slot) {
            return new long[] {live.limit()};
        }

        @Override
        ByteBuffer copyState(ByteBuffer b) {
            b.put(live.duplicate().position(0));
            return b.flip();
        }

        @Override
        public boolean accepts(ElementType t, long[] shape) {
            return t == ElementType.OPAQUE && shape.length == 1 && shape[0] == live.limit();
        }

        @Override
        public ChunkSource inPlace() {
            return (offset, into) -> into.put(into.position(), live, (int) offset, into.remaining());
        }

        @Override
        void copyChunk(long offset, ByteBuffer chunk) {
            live.duplicate().clear().put((int) offset, chunk, chunk.position(), chunk.remaining());
        }
    }

    /** A user entity; its staging grows to the largest state it has written. */
    static final class EntityEntry extends ProtectedEntry {
        private final Snapshotable entity;

        EntityEntry(String name, Scope scope, Snapshotable entity, int slots) {
            super(name, scope, slots);
            this.entity = entity;
        }

        @Override
        public long stagingBytes() {
            return 4096;
        }

        @Override
        public ElementType type() {
            return ElementType.OPAQUE;
        }

        @Override
        public long[] shape(int slot) {
            return new long[] {staging[slot].limit()};
        }

        @Override
        ByteBuffer copyState(ByteBuffer into) {
            GrowableSink sink = new GrowableSink(into);
            entity.save(sink);
            return sink.buffer().flip();
        }

        @Override
        public void committed() {
            entity.swap();
        }

        @Override
        public boolean accepts(ElementType t, long[] shape) {
            return t == ElementType.OPAQUE && shape.length == 1;
        }

        @Override
        void begin(String file, long length) {
            EntryStream.checkBufferable(file, name(), length);
            // slot 0 is free: restore runs with no checkpoint in flight
            if (staging[0] == null || staging[0].capacity() < length) {
                staging[0] = allocate(length);
            }
            staging[0].clear().limit((int) length);
        }

        @Override
        void copyChunk(long offset, ByteBuffer chunk) {
            staging[0].put((int) offset, chunk, chunk.position(), chunk.remaining());
        }

        @Override
        void end() {
            entity.restore(new BufferSource(staging[0].duplicate().order(ByteOrder.LITTLE_ENDIAN)));
        }
    }
}
