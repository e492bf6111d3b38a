package io.ironloop.group.internal.jgroups;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jgroups.Address;
import org.jgroups.Header;
import org.jgroups.util.Util;

/** A heartbeat, or a suspicion forwarded to the coordinator for verification, of {@link RankHeartbeat}. */
public final class HeartbeatHeader extends Header {
    static final short MAGIC = 1731;
    static final byte HEARTBEAT = 0;
    static final byte SUSPECT = 1;

    byte type;
    List<Address> suspects = List.of();

    public HeartbeatHeader() {
    }

    HeartbeatHeader(byte type, List<Address> suspects) {
        this.type = type;
        this.suspects = suspects;
    }

    @Override
    public short getMagicId() {
        return MAGIC;
    }

    @Override
    public Supplier<? extends Header> create() {
        return HeartbeatHeader::new;
    }

    @Override
    public int serializedSize() {
        int size = 1 + Integer.BYTES;
        for (Address a : suspects) {
            size += Util.size(a);
        }
        return size;
    }

    @Override
    public void writeTo(DataOutput out) throws IOException {
        out.writeByte(type);
        out.writeInt(suspects.size());
        for (Address a : suspects) {
            Util.writeAddress(a, out);
        }
    }

    @Override
    public void readFrom(DataInput in) throws IOException, ClassNotFoundException {
        type = in.readByte();
        int n = in.readInt();
        if (n < 0 || n > 65536) {
            throw new IOException("heartbeat header names " + n + " suspects");
        }
        List<Address> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(Util.readAddress(in));
        }
        suspects = list;
    }

    @Override
    public String toString() {
        return type == HEARTBEAT ? "heartbeat" : "suspect " + suspects;
    }
}
