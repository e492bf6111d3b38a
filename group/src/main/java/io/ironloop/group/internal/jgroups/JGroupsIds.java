package io.ironloop.group.internal.jgroups;

import org.jgroups.conf.ClassConfigurator;

/** Registers Ironloop's JGroups protocol ids and header magic numbers, once per JVM, before any stack is built. */
final class JGroupsIds {
    private static boolean done;

    private JGroupsIds() {
    }

    static synchronized void register() {
        if (done) {
            return;
        }
        protocol((short) 1730, RankHeartbeat.class);
        protocol((short) 1731, WireCounter.class);
        protocol((short) 1732, SuspectObserver.class);
        protocol((short) 1734, FormationGate.class);
        protocol((short) 1735, GroupTcp.class);
        protocol((short) 1736, GroupFdSock.class);
        ClassConfigurator.addIfAbsent(EnvelopeHeader.MAGIC, EnvelopeHeader.class);
        ClassConfigurator.addIfAbsent(HeartbeatHeader.MAGIC, HeartbeatHeader.class);
        done = true;
    }

    private static void protocol(short id, Class<?> type) {
        if (ClassConfigurator.getProtocolId(type) == 0) {
            ClassConfigurator.addProtocol(id, type);
        }
    }
}
