package io.ironloop.group.internal.jgroups;

import io.ironloop.group.DiscoveryMode;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.HeartbeatArrangement;
import io.ironloop.group.launch.JobSecret;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.spec.SecretKeySpec;
import org.jgroups.protocols.AUTH;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FILE_PING;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;
import org.jgroups.util.DefaultThreadFactory;

/**
 * Builds the JGroups protocol stack of a rank, bottom to top:
 * TCP ({@link GroupTcp}, connections authenticated by {@link SecretHandshake}) · {@link WireCounter} · discovery (TCPPING,
 * FILE_PING or DNS_PING, never multicast) · {@link FormationGate} (only rank 0 creates the cluster) · MERGE3 (only while the group forms) · FD_SOCK2 ({@link GroupFdSock}, crash
 * detection via a socket ring) · {@link RankHeartbeat} STAR/RING or FD_ALL3 (hang detection) ·
 * {@link SuspectObserver} · VERIFY_SUSPECT2 (verification by another member) · [SYM_ENCRYPT] · NAKACK2 ·
 * UNICAST3 · STABLE · AUTH ({@link JobSecretToken}) · GMS · UFC · MFC · FRAG4.
 */
final class StackBuilder {
    /** Where and how to bind, and whom to contact first. */
    record Network(InetAddress bindAddress, int bindPort, int discoveryPortRange, List<InetSocketAddress> initialHosts) {
    }

    private StackBuilder() {
    }

    /** Join requests time out after this long and are retried; see {@link FormationGate}. */
    static final long JOIN_ROUND_MILLIS = 1000;

    static List<Protocol> build(GroupConfig config, Network net, JobSecret secret, SecretHandshake handshake, int rank) throws Exception {
        JGroupsIds.register();
        List<Protocol> stack = new ArrayList<>();
        TCP tcp = new GroupTcp();
        tcp.setValue("bind_addr", net.bindAddress());
        tcp.setValue("bind_port", net.bindPort());
        tcp.setValue("port_range", 0);
        tcp.setSockConnTimeout(1000);
        tcp.tcpNodelay(true);
        tcp.setSocketFactory(new HandshakeSocketFactory(handshake));
        // JGroups' own threads are not daemons by default: after close, FD_SOCK2 may still be trying the next
        // ping destination (connect_timeout per member, 20 s for four) and that kept rank JVMs alive after main
        tcp.setThreadFactory(new NamedByLogicalAddress("jgroups"));
        stack.add(tcp);
        stack.add(new WireCounter());
        stack.add(discovery(config, net));
        stack.add(new FormationGate(rank == 0, config.joinTimeout().toMillis()));
        MERGE3 merge = new MERGE3();
        merge.setValue("min_interval", 1000L);
        merge.setValue("max_interval", 3000L);
        stack.add(merge);
        long interval = config.heartbeatInterval().toMillis();
        long timeout = config.heartbeatTimeout().toMillis();
        FD_SOCK2 sockets = new GroupFdSock();
        sockets.setBindAddress(net.bindAddress());
        // A member that does not answer a new monitoring connection is alive but not running (stopped,
        // starved): that is hang detection's business, with its timeout. A dead one refuses at once.
        sockets.setValue("connect_timeout", (int) Math.min(Integer.MAX_VALUE, timeout));
        stack.add(sockets);
        if (config.arrangement() == HeartbeatArrangement.ALL_TO_ALL) {
            stack.add(new FD_ALL3().setTimeout(timeout).setInterval(interval));
        } else {
            stack.add(new RankHeartbeat(interval, timeout, config.arrangement()));
        }
        stack.add(new SuspectObserver());
        stack.add(new VERIFY_SUSPECT2().setTimeout(config.verifyTimeout().toMillis()));
        if (config.encrypt()) {
            SYM_ENCRYPT encrypt = new SYM_ENCRYPT();
            byte[] key = java.util.Arrays.copyOf(secret.derive("ironloop-encrypt-v1"), 16);
            encrypt.setSecretKey(new SecretKeySpec(key, "AES"));
            stack.add(encrypt);
        }
        NAKACK2 nakack = new NAKACK2();
        nakack.setValue("use_mcast_xmit", false);
        stack.add(nakack);
        stack.add(new UNICAST3());
        stack.add(new STABLE());
        AUTH auth = new AUTH();
        JobSecretToken token = new JobSecretToken(secret);
        token.setAuth(auth);
        stack.add(auth.setAuthToken(token));
        GMS gms = new GMS();
        gms.setValue("join_timeout", JOIN_ROUND_MILLIS);
        // a coordinator was found (FormationGate) but did not answer: retry rather than found a cluster alone
        gms.setValue("max_join_attempts", (int) Math.max(10, config.joinTimeout().toMillis() / JOIN_ROUND_MILLIS));
        gms.setValue("print_local_addr", false);
        stack.add(gms);
        stack.add(new UFC());
        stack.add(new MFC());
        stack.add(new FRAG4());
        return stack;
    }

    private static Protocol discovery(GroupConfig config, Network net) {
        DiscoveryMode mode = config.discovery();
        if (mode == DiscoveryMode.AUTO) {
            mode = !net.initialHosts().isEmpty() ? DiscoveryMode.STATIC
                    : config.discoveryDirectory().isPresent() ? DiscoveryMode.FILE : DiscoveryMode.DNS;
        }
        return switch (mode) {
            case FILE -> new FILE_PING().setLocation(config.discoveryDirectory().orElseThrow().toString());
            case DNS -> new DNS_PING().dnsQuery(config.dnsQuery().orElseThrow(() -> new io.ironloop.ConfigurationException(
                    "no peers, no GROUP_DISCOVERY_DIR and no GROUP_DNS_QUERY: the ranks cannot find each other; set one of them")))
                    .dnsRecordType("A");
            default -> {
                TCPPING ping = new TCPPING();
                ping.setInitialHosts(net.initialHosts());
                ping.setPortRange(net.discoveryPortRange());
                yield ping;
            }
        };
    }

    /**
     * JGroups' daemon thread factory, naming threads after the member's logical name only: the full address
     * string of an {@code ExtendedUUID} prints its key/value bytes raw (the rank as four bytes, NULs
     * included), which put binary bytes into every log line of a JGroups thread.
     */
    static final class NamedByLogicalAddress extends DefaultThreadFactory {
        NamedByLogicalAddress(String baseName) {
            super(baseName, true, true);
        }

        @Override
        public void setAddress(String address) {
            super.setAddress(address == null ? null : logicalName(address));
        }

        /** {@code vm-123(k=v, …)} becomes {@code vm-123}; any control character left is dropped. */
        static String logicalName(String address) {
            int open = address.indexOf('(');
            String name = open >= 0 ? address.substring(0, open) : address;
            return name.codePoints().filter(c -> !Character.isISOControl(c))
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        }
    }
}
