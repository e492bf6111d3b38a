package io.ironloop.group.internal.jgroups;

import io.ironloop.group.internal.Envelope;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.Supplier;
import org.jgroups.Header;

/** Carries an {@link Envelope}'s addressing (epoch, kind, tag, source world rank) on a JGroups message. */
public final class EnvelopeHeader extends Header {
    static final short MAGIC = 1730;

    int epoch;
    byte kind;
    long tag;
    int source;

    public EnvelopeHeader() {
    }

    EnvelopeHeader(Envelope e) {
        epoch = e.epoch();
        kind = (byte) e.kind().ordinal();
        tag = e.tag();
        source = e.source();
    }

    Envelope toEnvelope(byte[] payload) {
        return new Envelope(epoch, Envelope.Kind.of(kind), tag, source, payload);
    }

    @Override
    public short getMagicId() {
        return MAGIC;
    }

    @Override
    public Supplier<? extends Header> create() {
        return EnvelopeHeader::new;
    }

    @Override
    public int serializedSize() {
        return Integer.BYTES + 1 + Long.BYTES + Integer.BYTES;
    }

    @Override
    public void writeTo(DataOutput out) throws IOException {
        out.writeInt(epoch);
        out.writeByte(kind);
        out.writeLong(tag);
        out.writeInt(source);
    }

    @Override
    public void readFrom(DataInput in) throws IOException {
        epoch = in.readInt();
        kind = in.readByte();
        tag = in.readLong();
        source = in.readInt();
    }

    @Override
    public String toString() {
        return "ironloop[epoch=" + epoch + ", kind=" + kind + ", tag=" + tag + ", source=" + source + "]";
    }
}
