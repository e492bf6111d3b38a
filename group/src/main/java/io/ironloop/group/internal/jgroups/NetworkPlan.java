package io.ironloop.group.internal.jgroups;

import io.ironloop.ConfigurationException;
import io.ironloop.group.GroupConfig;
import io.ironloop.group.RankEnvironment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/** Works out the bind address, port and initial hosts of a rank from its environment and configuration. */
final class NetworkPlan {
    private NetworkPlan() {
    }

    static StackBuilder.Network of(RankEnvironment env, GroupConfig config) {
        List<String> peers = config.peers().map(p -> List.of(p.split(","))).orElse(env.peers());
        boolean exact = env.source() == RankEnvironment.Source.IRONLOOP || config.peers().isPresent();
        List<InetSocketAddress> hosts = new ArrayList<>();
        for (String p : peers) {
            hosts.add(socketAddress(p.trim()));
        }
        if (exact && !peers.isEmpty()) {
            if (peers.size() != env.size()) {
                throw new ConfigurationException("the peer list names " + peers.size() + " ranks but the job has " + env.size());
            }
            InetSocketAddress own = hosts.get(env.rank());
            InetAddress bind = config.bindAddress().map(NetworkPlan::address).orElse(own.getAddress());
            return new StackBuilder.Network(bind, own.getPort(), 0, hosts);
        }
        InetAddress bind = config.bindAddress().map(NetworkPlan::address).orElseGet(NetworkPlan::localHost);
        int port = config.bindPort() + env.localIndex();
        if (port > 65535) {
            throw new ConfigurationException("GROUP_BIND_PORT " + config.bindPort() + " + local index " + env.localIndex() + " exceeds 65535");
        }
        return new StackBuilder.Network(bind, port, Math.max(0, env.ranksPerHost() - 1), hosts);
    }

    private static InetSocketAddress socketAddress(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new ConfigurationException("peer '" + hostPort + "' is not host:port");
        }
        try {
            return new InetSocketAddress(address(hostPort.substring(0, colon)), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new ConfigurationException("peer '" + hostPort + "' has no numeric port", e);
        }
    }

    private static InetAddress address(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new ConfigurationException("cannot resolve host '" + host + "' of the group's peers or bind address", e);
        }
    }

    private static InetAddress localHost() {
        try {
            return InetAddress.getLocalHost();
        } catch (UnknownHostException e) {
            throw new ConfigurationException("cannot resolve this host's address; set GROUP_BIND_ADDRESS", e);
        }
    }
}
