package io.ironloop.group;

import io.ironloop.config.ParameterKey;
import java.time.Duration;
import java.util.List;

/**
 * The process group's parameters. DeLIA's heartbeat keys sit in the {@code TRIGGER_HEARTBEAT_MONITORING}
 * section; Ironloop's own keys beside them. {@code PEERS} and {@code SECRET_FILE} are read from
 * {@code IRONLOOP_PEERS} and {@code IRONLOOP_SECRET_FILE}, which the Ironloop launcher sets.
 */
public final class GroupKeys {
    private GroupKeys() {
    }

    /** Section whose presence switches heartbeat-triggered local saves on (the runtime reads it). */
    public static final ParameterKey<Boolean> TRIGGER_HEARTBEAT_MONITORING = ParameterKey.section("TRIGGER_HEARTBEAT_MONITORING",
            "when present, a detected failure triggers local saves on every survivor; its fields set the failure detector's timing");

    /** Time without news after which a member is suspected (DeLIA's {@code TIME_MAX_WAIT}). */
    public static final ParameterKey<Duration> TIME_MAX_WAIT = ParameterKey.duration("TRIGGER_HEARTBEAT_MONITORING.TIME_MAX_WAIT",
            Duration.ofSeconds(5), Duration.ofMillis(100),
            "time without heartbeat after which a member is suspected; must exceed SLEEP_THREAD_TIME");

    /** Heartbeat interval (DeLIA's {@code SLEEP_THREAD_TIME}). */
    public static final ParameterKey<Duration> SLEEP_THREAD_TIME = ParameterKey.duration("TRIGGER_HEARTBEAT_MONITORING.SLEEP_THREAD_TIME",
            Duration.ofSeconds(1), Duration.ofMillis(10), "interval between heartbeats");

    /** Heartbeat arrangement. */
    public static final ParameterKey<HeartbeatArrangement> TYPE = ParameterKey.choice("TRIGGER_HEARTBEAT_MONITORING.TYPE",
            HeartbeatArrangement.class, HeartbeatArrangement.STAR,
            "heartbeat arrangement: STAR (leader-centred, 2(N-1) msgs/interval), RING (watchdog ring, N), ALL_TO_ALL (N(N-1))");

    /** Time the verifying member waits for a suspect's answer before declaring it failed. */
    public static final ParameterKey<Duration> GROUP_VERIFY_TIMEOUT = ParameterKey.duration("GROUP_VERIFY_TIMEOUT",
            Duration.ofMillis(500), Duration.ofMillis(50),
            "how long a third member waits for a suspected member to answer before it is declared failed");

    /** How members find each other. */
    public static final ParameterKey<DiscoveryMode> GROUP_DISCOVERY = ParameterKey.choice("GROUP_DISCOVERY", DiscoveryMode.class,
            DiscoveryMode.AUTO, "discovery: AUTO (from the environment), STATIC (PEERS), FILE (GROUP_DISCOVERY_DIR), DNS (GROUP_DNS_QUERY); never multicast");

    /** Static peer list. */
    public static final ParameterKey<String> PEERS = ParameterKey.string("PEERS", null,
            "comma-separated host:port of every rank in rank order (set by the launcher as IRONLOOP_PEERS)");

    /** Shared directory for FILE discovery. */
    public static final ParameterKey<java.nio.file.Path> GROUP_DISCOVERY_DIR = ParameterKey.path("GROUP_DISCOVERY_DIR", null,
            "directory on a shared file system where members publish their addresses (FILE discovery)");

    /** DNS name for DNS discovery. */
    public static final ParameterKey<String> GROUP_DNS_QUERY = ParameterKey.string("GROUP_DNS_QUERY", null,
            "DNS name whose A records are the members, e.g. a Kubernetes headless service 'ranks.default.svc.cluster.local' (DNS discovery)");

    /** Number of ranks when the environment does not say (Kubernetes indexed Job, explicit configuration). */
    public static final ParameterKey<Long> GROUP_SIZE = ParameterKey.integer("GROUP_SIZE", null, 1,
            "number of ranks when the environment does not give it (Kubernetes indexed Job: its completions)");

    /** Address to bind. */
    public static final ParameterKey<String> GROUP_BIND_ADDRESS = ParameterKey.string("GROUP_BIND_ADDRESS", null,
            "address the group binds; default 127.0.0.1 under the Ironloop launcher, this host's address elsewhere");

    /** First port to bind when the peer list does not give one. */
    public static final ParameterKey<Long> GROUP_BIND_PORT = ParameterKey.integer("GROUP_BIND_PORT", 7800L, 1,
            "port of the first rank on a host when no peer list gives ports; rank i on a host binds GROUP_BIND_PORT + its local index")
            .requiring(p -> p < 65536, "is not a TCP port (1..65535)");

    /** Job secret file. */
    public static final ParameterKey<java.nio.file.Path> SECRET_FILE = ParameterKey.path("SECRET_FILE", null,
            "file holding the job secret, readable only by its owner (set by the launcher as IRONLOOP_SECRET_FILE); required");

    /** Encryption of group traffic. */
    public static final ParameterKey<Boolean> GROUP_ENCRYPT = ParameterKey.bool("GROUP_ENCRYPT", false,
            "encrypt all group traffic with AES-GCM keyed by the job secret (JGroups SYM_ENCRYPT); for multi-host runs on untrusted networks");

    /** Shared memory for the large collectives between the ranks of one host. */
    public static final ParameterKey<Boolean> GROUP_SHARED_MEMORY = ParameterKey.bool("GROUP_SHARED_MEMORY", true,
            "large allreduces between ranks that share a host go through memory-mapped files in /dev/shm instead of TCP (docs/group.md); false: always TCP");

    /** How long to wait for every rank to join. */
    public static final ParameterKey<Duration> GROUP_JOIN_TIMEOUT = ParameterKey.duration("GROUP_JOIN_TIMEOUT", Duration.ofSeconds(60),
            Duration.ofMillis(100), "how long a rank waits for all ranks to join before giving up");

    /** This process's site, for site protection (the sites module, docs/sites.md); unset: the whole job is one site. */
    public static final ParameterKey<String> SITE = ParameterKey.string("SITE", null,
            "this process's site (data centre, region, virtual cluster) for site protection (docs/sites.md); unset: one site");

    /** Between two heartbeats of a site's cluster protector (the sites module). */
    public static final ParameterKey<Duration> SITE_HEARTBEAT = ParameterKey.duration("SITE_HEARTBEAT", Duration.ofMillis(200),
            Duration.ofMillis(10), "between two heartbeats of a site's cluster protector to the protector of the previous site");

    /** Silence after which a cluster protector asks a third site to check the site it watches (the sites module). */
    public static final ParameterKey<Duration> SITE_TIMEOUT = ParameterKey.duration("SITE_TIMEOUT", Duration.ofSeconds(2),
            Duration.ofMillis(30), "silence after which a site's cluster protector asks a third site to check the site it watches");

    /** Encryption of the traffic between site protectors (the sites module). */
    public static final ParameterKey<Boolean> SITE_ENCRYPT = ParameterKey.bool("SITE_ENCRYPT", false,
            "encrypt the traffic between site protectors (site checkpoints, heartbeats) with AES-GCM under per-connection keys derived from the job secret; the same at every protector");

    /** Every key of the process group, in documentation order. */
    public static final List<ParameterKey<?>> ALL = List.of(TRIGGER_HEARTBEAT_MONITORING, TIME_MAX_WAIT, SLEEP_THREAD_TIME, TYPE,
            GROUP_VERIFY_TIMEOUT, GROUP_DISCOVERY, PEERS, GROUP_DISCOVERY_DIR, GROUP_DNS_QUERY, GROUP_SIZE, GROUP_BIND_ADDRESS,
            GROUP_BIND_PORT, SECRET_FILE, GROUP_ENCRYPT, GROUP_SHARED_MEMORY, GROUP_JOIN_TIMEOUT, SITE, SITE_HEARTBEAT, SITE_TIMEOUT, SITE_ENCRYPT);
}
