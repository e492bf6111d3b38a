package io.ironloop.sites;

import io.ironloop.ConfigurationException;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.group.launch.LaunchEnvironment;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a rank finds the protectors of the job's sites, and how it follows them when they move (error masking, paper
 * 004's Algorithm 4, on demand): the addresses of the H-RADIC table it was started with ({@link #fromEnvironment}:
 * {@value #PROTECTORS_ENV}, {@value #TABLE_ENV} and {@code IRONLOOP_SITE}, which {@code ironloop run --fake-sites}
 * gives every rank), replaced by a newer table whenever one is learnt.
 *
 * <p>The retry rule: when a call to an address the directory gave fails, the directory asks for the table
 * ({@code GET_TABLE}) first the other protectors of the rank's own site (its node protectors, which hold the table a
 * controller failover made), then every other address it knows (the other sites' cluster and node protectors), adopts
 * the newest table newer than its own, and the call is made once more at the address that table gives — or fails with
 * the first error when no table names another address. A protector's answer to a call also brings a newer table it
 * holds, so the directory follows changes that moved nobody it calls too.
 *
 * <p>Thread-safe. Its calls block for at most a few {@code timeout}s each: make them off the application's thread.
 */
public final class SiteDirectory {
    /** The protectors' addresses: {@code SITE=host:port} of every site's cluster protector and {@code SITE/NODE=host:port} of every node protector, comma-separated. */
    public static final String PROTECTORS_ENV = "IRONLOOP_SITE_PROTECTORS";
    /** The version of the table those addresses come from. */
    public static final String TABLE_ENV = "IRONLOOP_SITE_TABLE";

    private static final Logger LOG = LoggerFactory.getLogger(SiteDirectory.class);

    /**
     * A protector found at a new address.
     *
     * @param site the site whose cluster protector the rank reaches now (its own site, or the one its ranks were placed
     *     on when its site was replaced)
     * @param from the address that failed
     * @param to the address of the table learnt
     * @param tableVersion that table's version
     * @param askedAt the protector that answered with it
     */
    public record Moved(String site, String from, String to, long tableVersion, String askedAt) {
    }

    private final int rank;
    private final JobSecret secret;
    private final boolean encrypt;
    private final Duration timeout;
    private String site; // guarded by this
    private long version; // guarded by this
    private Topology table; // guarded by this; null until a protector gave the whole table
    private Map<String, String> protectors; // guarded by this: site → its cluster protector's host:port
    private Map<String, Map<String, String>> nodes; // guarded by this: site → node → its node protector's host:port

    private SiteDirectory(int rank, String site, long version, Map<String, String> protectors, Map<String, Map<String, String>> nodes,
            JobSecret secret, boolean encrypt, Duration timeout) {
        this.rank = rank;
        this.site = site;
        this.version = version;
        this.protectors = protectors;
        this.nodes = nodes;
        this.secret = Objects.requireNonNull(secret, "secret");
        this.encrypt = encrypt;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (!protectors.containsKey(site)) {
            throw new ConfigurationException("site " + site + " has no protector in " + PROTECTORS_ENV + " " + protectors.keySet()
                    + ": give SITE=host:port of every site");
        }
    }

    /**
     * The directory of rank {@code rank} of a job whose protectors run on {@code table}.
     *
     * @param encrypt {@code SITE_ENCRYPT}, as at the protectors
     * @param timeout for each connection and answer ({@code SITE_TIMEOUT})
     * @throws ConfigurationException if the table places no rank {@code rank} or gives its site no protector address
     */
    public static SiteDirectory of(int rank, Topology table, JobSecret secret, boolean encrypt, Duration timeout) {
        String site;
        try {
            site = table.siteOf(rank);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("rank " + rank + " is on no site of the table v" + table.version() + ": " + e.getMessage(), e);
        }
        SiteDirectory d = new SiteDirectory(rank, site, table.version(), protectorsOf(table), nodesOf(table), secret, encrypt, timeout);
        d.table = table;
        return d;
    }

    /**
     * The directory of this process from its environment: {@code IRONLOOP_RANK}, {@code IRONLOOP_SITE}, {@value #PROTECTORS_ENV}
     * and {@value #TABLE_ENV} (as {@link #environment} writes them).
     *
     * @return empty when {@value #PROTECTORS_ENV} or {@code IRONLOOP_SITE} is not set (no site protection)
     * @throws ConfigurationException if a variable is malformed
     */
    public static Optional<SiteDirectory> fromEnvironment(Map<String, String> env, JobSecret secret, boolean encrypt, Duration timeout) {
        String list = env.get(PROTECTORS_ENV);
        String site = env.get(LaunchEnvironment.SITE);
        if (list == null || list.isBlank() || site == null || site.isBlank()) {
            return Optional.empty();
        }
        Map<String, String> protectors = new LinkedHashMap<>();
        Map<String, Map<String, String>> nodes = new LinkedHashMap<>();
        for (String entry : list.split(",")) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new ConfigurationException(PROTECTORS_ENV + ": '" + entry + "' is not SITE=host:port or SITE/NODE=host:port");
            }
            String name = entry.substring(0, eq).trim();
            String address = entry.substring(eq + 1).trim();
            LaunchEnvironment.address(PROTECTORS_ENV, address); // refuses what is not host:port
            int slash = name.indexOf('/');
            if (slash < 0) {
                protectors.put(name, address);
            } else {
                nodes.computeIfAbsent(name.substring(0, slash), s -> new LinkedHashMap<>()).put(name.substring(slash + 1), address);
            }
        }
        return Optional.of(new SiteDirectory((int) number(env, LaunchEnvironment.RANK, -1), site.trim(), number(env, TABLE_ENV, 1), protectors,
                nodes, secret, encrypt, timeout));
    }

    /** What every rank of a job on {@code table} is told of its protectors ({@value #PROTECTORS_ENV}, {@value #TABLE_ENV}). */
    public static Map<String, String> environment(Topology table) {
        List<String> entries = new ArrayList<>();
        protectorsOf(table).forEach((s, at) -> entries.add(s + "=" + at));
        nodesOf(table).forEach((s, ofSite) -> ofSite.forEach((n, at) -> entries.add(s + "/" + n + "=" + at)));
        return Map.of(PROTECTORS_ENV, String.join(",", entries), TABLE_ENV, Long.toString(table.version()));
    }

    /** The site this rank runs on, by the newest table known. */
    public synchronized String site() {
        return site;
    }

    /** The version of the newest table known. */
    public synchronized long version() {
        return version;
    }

    /**
     * The address ({@code host:port}) of {@code site}'s cluster protector by the newest table known.
     *
     * @throws IllegalArgumentException if the directory knows no such site
     */
    public synchronized String protectorOf(String site) {
        String at = protectors.get(site);
        if (at == null) {
            throw new IllegalArgumentException("no site " + site + " in the table v" + version + " (sites " + protectors.keySet() + ")");
        }
        return at;
    }

    /**
     * Tells this rank's site's cluster protector that the rank committed a line of {@code series} at {@code iteration}, so
     * that it ships the line at once; under the retry rule of the class comment, and adopting a newer table its answer
     * brings.
     *
     * @return where the protector was found when it had moved, else empty
     * @throws IOException if the protector cannot be reached at the address known nor at one a newer table gives
     */
    public Optional<Moved> committed(String series, long iteration) throws IOException {
        String mySite = site();
        String at = protectorOf(mySite);
        try {
            notice(at, series, iteration);
            return Optional.empty();
        } catch (IOException first) {
            Optional<Moved> moved = refresh(mySite, at);
            if (moved.isEmpty()) {
                throw first;
            }
            notice(moved.get().to(), series, iteration); // once, at the new address
            return moved;
        }
    }

    private void notice(String at, String series, long iteration) throws IOException {
        long known;
        long digest;
        synchronized (this) {
            known = version;
            digest = table == null ? 0 : table.digest();
        }
        ProtectorCalls.HeartbeatAnswer answer = ProtectorCalls.committed(SiteProtector.address(at), secret, encrypt, "rank-" + rank, series,
                iteration, known, digest, timeout);
        if (!answer.newerTable().isEmpty()) {
            adopt(Topology.parse(answer.newerTable()));
        }
    }

    /**
     * Learns where {@code site}'s cluster protector is after a call to {@code failed} (an address this directory gave)
     * failed: asks this rank's site's other protectors for the table, then every other address known, and adopts the
     * newest table newer than the one held. When {@code site} is this rank's site and the table places the rank on
     * another site (its site was declared failed and replaced), the protector of that site is the one it reaches now.
     *
     * @return the move, when the table adopted gives the site another address; empty when no protector answered a newer
     *     table, or it still gives {@code failed}
     */
    public Optional<Moved> refresh(String site, String failed) {
        boolean mine = site.equals(site());
        Topology newest = null;
        String answeredBy = null;
        for (String at : askOrder(failed)) {
            try {
                Topology t = SiteProtector.fetchTable(SiteProtector.address(at), secret, encrypt, timeout);
                if (t.version() > version() && (newest == null || t.version() > newest.version())) {
                    newest = t;
                    answeredBy = at;
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("rank {}: the protector at {} did not give its table: {}", rank, at, e.toString());
                continue;
            }
            String now = newest == null ? null : mine ? siteOfRank(newest, site) : site;
            if (now != null && newest.has(now) && !newest.site(now).protector().equals(failed)) {
                break; // the nearest protector that knows of the move
            }
        }
        if (newest == null || !adopt(newest)) {
            return Optional.empty();
        }
        synchronized (this) {
            String now = mine ? this.site : site;
            String to = protectors.get(now);
            if (to == null || to.equals(failed)) {
                return Optional.empty();
            }
            LOG.info("rank {}: the cluster protector of site {} moved from {} to {}{} (table v{}, asked {})", rank, site, failed, to,
                    now.equals(site) ? "" : ", the protector of site " + now + " where this rank runs now", version, answeredBy);
            return Optional.of(new Moved(now, failed, to, version, answeredBy));
        }
    }

    /**
     * Whom {@link #refresh} asks, in order: this site's other protectors (the node protector of its controller node, which
     * is lost with the cluster protector when the node is, last of them), then every other address known.
     */
    private synchronized List<String> askOrder(String failed) {
        Map<String, String> ofSite = new LinkedHashMap<>(nodes.getOrDefault(site, Map.of()));
        if (table != null && table.has(site) && ofSite.containsKey(table.site(site).controller())) {
            String controller = table.site(site).controller();
            ofSite.put(controller, ofSite.remove(controller)); // to the end
        }
        Set<String> order = new LinkedHashSet<>(ofSite.values());
        order.addAll(protectors.values());
        nodes.values().forEach(other -> order.addAll(other.values()));
        order.remove(failed);
        return new ArrayList<>(order);
    }

    /** Adopts {@code t} if newer than the table held (or the same version, when only its version was known). */
    private synchronized boolean adopt(Topology t) {
        if (t.version() < version || t.version() == version && table != null) {
            return false;
        }
        table = t;
        version = t.version();
        protectors = protectorsOf(t);
        nodes = nodesOf(t);
        site = siteOfRank(t, site); // placed on another site when its site was replaced
        return true;
    }

    /** The site {@code t} places this rank on, or {@code fallback} when it places no such rank. */
    private String siteOfRank(Topology t, String fallback) {
        return rank >= 0 && t.ring().stream().anyMatch(s -> s.ranks().contains(rank)) ? t.siteOf(rank) : fallback;
    }

    private static Map<String, String> protectorsOf(Topology t) {
        Map<String, String> m = new LinkedHashMap<>();
        t.sites().stream().filter(s -> !s.protector().isEmpty()).forEach(s -> m.put(s.name(), s.protector()));
        return m;
    }

    private static Map<String, Map<String, String>> nodesOf(Topology t) {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        t.sites().forEach(s -> {
            if (!t.nodeProtectors(s.name()).isEmpty()) {
                m.put(s.name(), t.nodeProtectors(s.name()));
            }
        });
        return m;
    }

    private static long number(Map<String, String> env, String name, long fallback) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(name + ": '" + v + "' is not a number", e);
        }
    }
}
