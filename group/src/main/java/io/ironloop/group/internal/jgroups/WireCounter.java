package io.ironloop.group.internal.jgroups;

import java.util.concurrent.atomic.LongAdder;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * Sits directly above the transport and counts failure-detection heartbeats (of {@link RankHeartbeat} or
 * FD_ALL3) as they leave for and arrive from the wire, so heartbeat traffic is measured, not computed.
 * A multicast counts once when sent and once per receiver when received; the sum over all members of
 * {@link #received()} is the number of heartbeat messages delivered on the wire.
 */
public final class WireCounter extends Protocol {
    private final short heartbeatId = ClassConfigurator.getProtocolId(RankHeartbeat.class);
    private final short allToAllId = ClassConfigurator.getProtocolId(FD_ALL3.class);
    private final LongAdder sent = new LongAdder();
    private final LongAdder received = new LongAdder();

    private boolean isHeartbeat(Message m) {
        if (m.getHeader(heartbeatId) instanceof HeartbeatHeader h) {
            return h.type == HeartbeatHeader.HEARTBEAT;
        }
        return m.getHeader(allToAllId) != null;
    }

    /** Heartbeat messages handed to the transport. */
    public long sent() {
        return sent.sum();
    }

    /** Heartbeat messages received from the wire. */
    public long received() {
        return received.sum();
    }

    @Override
    public Object down(Message msg) {
        if (isHeartbeat(msg)) {
            sent.increment();
        }
        return down_prot.down(msg);
    }

    @Override
    public Object up(Message msg) {
        if (isHeartbeat(msg)) {
            received.increment();
        }
        return up_prot.up(msg);
    }

    @Override
    public void up(MessageBatch batch) {
        for (Message m : batch) {
            if (isHeartbeat(m)) {
                received.increment();
            }
        }
        up_prot.up(batch);
    }
}
