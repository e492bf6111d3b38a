package io.ironloop.group;

import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import io.ironloop.config.Units;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable settings of a process group: failure-detector timing and arrangement, discovery, binding,
 * security. Built with {@link #builder()} or read from parameters with {@link #from(Parameters)}.
 */
public final class GroupConfig {
    private final Duration heartbeatInterval;
    private final Duration heartbeatTimeout;
    private final HeartbeatArrangement arrangement;
    private final Duration verifyTimeout;
    private final DiscoveryMode discovery;
    private final String peers;
    private final Path discoveryDirectory;
    private final String dnsQuery;
    private final Integer size;
    private final String bindAddress;
    private final int bindPort;
    private final Path secretFile;
    private final boolean encrypt;
    private final boolean sharedMemory;
    private final Duration joinTimeout;
    private final boolean heartbeatTrigger;

    private GroupConfig(Builder b) {
        heartbeatInterval = b.heartbeatInterval;
        heartbeatTimeout = b.heartbeatTimeout;
        arrangement = b.arrangement;
        verifyTimeout = b.verifyTimeout;
        discovery = b.discovery;
        peers = b.peers;
        discoveryDirectory = b.discoveryDirectory;
        dnsQuery = b.dnsQuery;
        size = b.size;
        bindAddress = b.bindAddress;
        bindPort = b.bindPort;
        secretFile = b.secretFile;
        encrypt = b.encrypt;
        sharedMemory = b.sharedMemory;
        joinTimeout = b.joinTimeout;
        heartbeatTrigger = b.heartbeatTrigger;
    }

    /** A builder with every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** The defaults (heartbeat every 1 s, timeout 5 s, STAR, AUTO discovery). */
    public static GroupConfig defaults() {
        return builder().build();
    }

    /**
     * Reads the {@link GroupKeys} from {@code parameters}.
     *
     * @throws IllegalArgumentException if the parameters' table lacks the group's keys
     * @throws ConfigurationException if values conflict (e.g. interval not below timeout)
     */
    public static GroupConfig from(Parameters parameters) {
        Builder b = builder()
                .heartbeatInterval(parameters.get(GroupKeys.SLEEP_THREAD_TIME))
                .heartbeatTimeout(parameters.get(GroupKeys.TIME_MAX_WAIT))
                .arrangement(parameters.get(GroupKeys.TYPE))
                .verifyTimeout(parameters.get(GroupKeys.GROUP_VERIFY_TIMEOUT))
                .discovery(parameters.get(GroupKeys.GROUP_DISCOVERY))
                .bindPort(parameters.get(GroupKeys.GROUP_BIND_PORT).intValue())
                .encrypt(parameters.get(GroupKeys.GROUP_ENCRYPT))
                .sharedMemory(parameters.get(GroupKeys.GROUP_SHARED_MEMORY))
                .joinTimeout(parameters.get(GroupKeys.GROUP_JOIN_TIMEOUT))
                .heartbeatTrigger(parameters.isSet(GroupKeys.TRIGGER_HEARTBEAT_MONITORING));
        parameters.find(GroupKeys.PEERS).ifPresent(b::peers);
        parameters.find(GroupKeys.GROUP_DISCOVERY_DIR).ifPresent(b::discoveryDirectory);
        parameters.find(GroupKeys.GROUP_DNS_QUERY).ifPresent(b::dnsQuery);
        parameters.find(GroupKeys.GROUP_SIZE).ifPresent(s -> b.size(Math.toIntExact(s)));
        parameters.find(GroupKeys.GROUP_BIND_ADDRESS).ifPresent(b::bindAddress);
        parameters.find(GroupKeys.SECRET_FILE).ifPresent(b::secretFile);
        return b.build();
    }

    /** Heartbeat interval ({@code SLEEP_THREAD_TIME}). */
    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    /** Time without news before suspicion ({@code TIME_MAX_WAIT}). */
    public Duration heartbeatTimeout() {
        return heartbeatTimeout;
    }

    public HeartbeatArrangement arrangement() {
        return arrangement;
    }

    /** How long the verifying member waits for a suspect to answer. */
    public Duration verifyTimeout() {
        return verifyTimeout;
    }

    public DiscoveryMode discovery() {
        return discovery;
    }

    /** The static peer list (host:port,...), if configured. */
    public Optional<String> peers() {
        return Optional.ofNullable(peers);
    }

    public Optional<Path> discoveryDirectory() {
        return Optional.ofNullable(discoveryDirectory);
    }

    public Optional<String> dnsQuery() {
        return Optional.ofNullable(dnsQuery);
    }

    /** The configured number of ranks, if any (used when the environment does not give it). */
    public Optional<Integer> size() {
        return Optional.ofNullable(size);
    }

    public Optional<String> bindAddress() {
        return Optional.ofNullable(bindAddress);
    }

    public int bindPort() {
        return bindPort;
    }

    public Optional<Path> secretFile() {
        return Optional.ofNullable(secretFile);
    }

    public boolean encrypt() {
        return encrypt;
    }

    /**
     * Whether large allreduces between ranks on one host may go through shared memory ({@code GROUP_SHARED_MEMORY},
     * default true); never with {@link #encrypt()}.
     */
    public boolean sharedMemory() {
        return sharedMemory;
    }

    public Duration joinTimeout() {
        return joinTimeout;
    }

    /** Whether the {@code TRIGGER_HEARTBEAT_MONITORING} section was present (the runtime saves locally on failures). */
    public boolean heartbeatTrigger() {
        return heartbeatTrigger;
    }

    @Override
    public String toString() {
        return "GroupConfig[interval=" + Units.formatDuration(heartbeatInterval) + ", timeout=" + Units.formatDuration(heartbeatTimeout)
                + ", arrangement=" + arrangement + ", verify=" + Units.formatDuration(verifyTimeout) + ", discovery=" + discovery
                + ", encrypt=" + encrypt + ", sharedMemory=" + sharedMemory + "]";
    }

    /**
     * Builds a {@link GroupConfig}. Each setter rejects a bad value with {@link IllegalArgumentException}
     * and a second call for the same setting with {@link IllegalStateException}; {@link #build()} checks
     * the settings against each other.
     */
    public static final class Builder {
        private Duration heartbeatInterval = GroupKeys.SLEEP_THREAD_TIME.defaultValue();
        private Duration heartbeatTimeout = GroupKeys.TIME_MAX_WAIT.defaultValue();
        private HeartbeatArrangement arrangement = GroupKeys.TYPE.defaultValue();
        private Duration verifyTimeout = GroupKeys.GROUP_VERIFY_TIMEOUT.defaultValue();
        private DiscoveryMode discovery = GroupKeys.GROUP_DISCOVERY.defaultValue();
        private String peers;
        private Path discoveryDirectory;
        private String dnsQuery;
        private Integer size;
        private String bindAddress;
        private int bindPort = GroupKeys.GROUP_BIND_PORT.defaultValue().intValue();
        private Path secretFile;
        private boolean encrypt;
        private boolean sharedMemory = GroupKeys.GROUP_SHARED_MEMORY.defaultValue();
        private Duration joinTimeout = GroupKeys.GROUP_JOIN_TIMEOUT.defaultValue();
        private boolean heartbeatTrigger;
        private final java.util.Set<String> set = new java.util.HashSet<>();

        private Builder() {
        }

        private void once(String setting) {
            if (!set.add(setting)) {
                throw new IllegalStateException(setting + " was already set on this builder");
            }
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, not " + d);
            }
            return d;
        }

        /** Heartbeat interval, {@code SLEEP_THREAD_TIME}; positive. */
        public Builder heartbeatInterval(Duration interval) {
            once("heartbeatInterval");
            heartbeatInterval = positive(interval, "heartbeat interval (SLEEP_THREAD_TIME)");
            return this;
        }

        /** Detection timeout, {@code TIME_MAX_WAIT}; positive. */
        public Builder heartbeatTimeout(Duration timeout) {
            once("heartbeatTimeout");
            heartbeatTimeout = positive(timeout, "heartbeat timeout (TIME_MAX_WAIT)");
            return this;
        }

        public Builder arrangement(HeartbeatArrangement value) {
            once("arrangement");
            arrangement = Objects.requireNonNull(value, "arrangement");
            return this;
        }

        /** How long a verifying member waits for the suspect's answer; positive. */
        public Builder verifyTimeout(Duration timeout) {
            once("verifyTimeout");
            verifyTimeout = positive(timeout, "verify timeout (GROUP_VERIFY_TIMEOUT)");
            return this;
        }

        public Builder discovery(DiscoveryMode value) {
            once("discovery");
            discovery = Objects.requireNonNull(value, "discovery");
            return this;
        }

        /** Static peers, {@code host:port,host:port,...} in rank order. */
        public Builder peers(String value) {
            once("peers");
            Objects.requireNonNull(value, "peers");
            for (String p : value.split(",")) {
                int colon = p.lastIndexOf(':');
                if (colon <= 0 || colon == p.length() - 1) {
                    throw new IllegalArgumentException("peer '" + p + "' in '" + value + "' is not host:port");
                }
                try {
                    int port = Integer.parseInt(p.substring(colon + 1).trim());
                    if (port < 1 || port > 65535) {
                        throw new IllegalArgumentException("peer '" + p + "' has port " + port + " outside 1..65535");
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("peer '" + p + "' has no numeric port", e);
                }
            }
            peers = value;
            return this;
        }

        public Builder discoveryDirectory(Path value) {
            once("discoveryDirectory");
            discoveryDirectory = Objects.requireNonNull(value, "discoveryDirectory");
            return this;
        }

        public Builder dnsQuery(String value) {
            once("dnsQuery");
            if (Objects.requireNonNull(value, "dnsQuery").isBlank()) {
                throw new IllegalArgumentException("the DNS query is empty");
            }
            dnsQuery = value.trim();
            return this;
        }

        /** Number of ranks when the environment does not give it; at least 1. */
        public Builder size(int value) {
            once("size");
            if (value < 1) {
                throw new IllegalArgumentException("group size must be at least 1, not " + value);
            }
            size = value;
            return this;
        }

        public Builder bindAddress(String value) {
            once("bindAddress");
            if (Objects.requireNonNull(value, "bindAddress").isBlank()) {
                throw new IllegalArgumentException("the bind address is empty");
            }
            bindAddress = value.trim();
            return this;
        }

        /** Base port, 1..65535. */
        public Builder bindPort(int value) {
            once("bindPort");
            if (value < 1 || value > 65535) {
                throw new IllegalArgumentException("bind port must be in 1..65535, not " + value);
            }
            bindPort = value;
            return this;
        }

        public Builder secretFile(Path value) {
            once("secretFile");
            secretFile = Objects.requireNonNull(value, "secretFile");
            return this;
        }

        public Builder encrypt(boolean value) {
            once("encrypt");
            encrypt = value;
            return this;
        }

        /** {@code GROUP_SHARED_MEMORY}: whether large allreduces between ranks on one host may use shared memory. */
        public Builder sharedMemory(boolean value) {
            once("sharedMemory");
            sharedMemory = value;
            return this;
        }

        public Builder joinTimeout(Duration value) {
            once("joinTimeout");
            joinTimeout = positive(value, "join timeout (GROUP_JOIN_TIMEOUT)");
            return this;
        }

        public Builder heartbeatTrigger(boolean value) {
            once("heartbeatTrigger");
            heartbeatTrigger = value;
            return this;
        }

        /**
         * Checks the settings against each other and builds the configuration. Changes nothing.
         *
         * @throws ConfigurationException if the heartbeat interval is not below the timeout, the
         *     verification timeout not below the detection timeout, or the discovery lacks its setting
         */
        public GroupConfig build() {
            if (heartbeatInterval.compareTo(heartbeatTimeout) >= 0) {
                throw new ConfigurationException("TRIGGER_HEARTBEAT_MONITORING.SLEEP_THREAD_TIME (" + Units.formatDuration(heartbeatInterval)
                        + ") must be smaller than TRIGGER_HEARTBEAT_MONITORING.TIME_MAX_WAIT (" + Units.formatDuration(heartbeatTimeout)
                        + "): a member would be declared failed before its next heartbeat is due; e.g. use 1s and 5s");
            }
            if (verifyTimeout.compareTo(heartbeatTimeout) >= 0) {
                throw new ConfigurationException("GROUP_VERIFY_TIMEOUT (" + Units.formatDuration(verifyTimeout)
                        + ") must be smaller than TRIGGER_HEARTBEAT_MONITORING.TIME_MAX_WAIT (" + Units.formatDuration(heartbeatTimeout) + ")");
            }
            if (discovery == DiscoveryMode.FILE && discoveryDirectory == null) {
                throw new ConfigurationException("GROUP_DISCOVERY is FILE but GROUP_DISCOVERY_DIR is not set: name a directory on a shared file system");
            }
            if (discovery == DiscoveryMode.DNS && dnsQuery == null) {
                throw new ConfigurationException("GROUP_DISCOVERY is DNS but GROUP_DNS_QUERY is not set: name the headless service, e.g. ranks.default.svc.cluster.local");
            }
            return new GroupConfig(this);
        }
    }
}
