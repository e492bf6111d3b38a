package io.ironloop.runtime.internal.blocks;

import io.ironloop.core.level.PeerLink;
import io.ironloop.group.ProcessGroup;
import java.nio.ByteBuffer;
import java.util.Map;

/** The partner level's view of a process group, with every world rank's failure domain. */
public final class GroupPeers implements PeerLink {
    private final ProcessGroup group;
    private final Map<Integer, String> hostByWorldRank;

    public GroupPeers(ProcessGroup group, Map<Integer, String> hostByWorldRank) {
        this.group = group;
        this.hostByWorldRank = Map.copyOf(hostByWorldRank);
    }

    @Override
    public int rank() {
        return group.rank();
    }

    @Override
    public int size() {
        return group.size();
    }

    @Override
    public int worldRank(int rank) {
        return group.worldRank(rank);
    }

    @Override
    public String host(int rank) {
        return hostByWorldRank.getOrDefault(group.worldRank(rank), "");
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        group.send(dest, tag, data);
    }

    @Override
    public ByteBuffer receive(int source, int tag) {
        return group.receiveBuffer(source, tag);
    }

    @Override
    public void recycle(ByteBuffer buffer) {
        group.recycle(buffer);
    }
}
