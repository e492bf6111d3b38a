package io.ironloop.sites;

import io.ironloop.config.Parameters;
import io.ironloop.group.GroupKeys;
import io.ironloop.group.ProcessGroup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The H-RADIC table (paper 004, Table 1): the job's sites in ring order, each with its nodes, its controller node
 * (where its cluster protector runs), the address of that protector and the world ranks it runs, then the spare
 * sites. Site Y is protected by the site before it in the ring, X — the first by the last — so X keeps Y's
 * site checkpoint, watches Y, and restarts Y's ranks when Y is lost. Immutable; every change is a new table with
 * a higher {@link #version()}.
 *
 * <p>Built at start from where every rank runs ({@link #of}, or collectively with {@link #agree}, so that every
 * rank holds the same table), and replaced on every recovery ({@link #replace}: Algorithm 4, error masking).
 */
public final class Topology {
    /**
     * One row of the table.
     *
     * @param name the site's name (letters, digits, '-', '_', '.')
     * @param nodes its nodes (hosts), in the order their first rank appears
     * @param controller the controller node, where the cluster protector runs (the node of the site's lowest rank)
     * @param protector the cluster protector's {@code host:port}, empty when not known (a table built by ranks)
     * @param ranks the world ranks it runs, ascending; empty for a spare site
     * @param spare whether it is a spare site (no ranks, not in the ring)
     */
    public record Site(String name, List<String> nodes, String controller, String protector, List<Integer> ranks, boolean spare) {
        /**
         * Checks the row.
         *
         * @throws IllegalArgumentException for a bad name, no nodes, a controller that is not one of the nodes, a spare
         *     with ranks or an active site without
         */
        public Site {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(protector, "protector");
            nodes = List.copyOf(nodes);
            ranks = List.copyOf(new TreeSet<>(ranks));
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException("a site name is 1 to 64 letters, digits, '.', '-' or '_': '" + name + "'");
            }
            if (nodes.isEmpty() || !nodes.contains(controller)) {
                throw new IllegalArgumentException("site " + name + ": the controller node " + controller + " is not one of its nodes " + nodes);
            }
            if (spare != ranks.isEmpty()) {
                throw new IllegalArgumentException("site " + name + (spare ? " is a spare but runs ranks " + ranks : " runs no rank"));
            }
        }

        /** A spare site: nodes, no ranks. */
        public static Site spare(String name, List<String> nodes, String protector) {
            return new Site(name, nodes, nodes.get(0), protector, List.of(), true);
        }

        /** This row with another protector address. */
        public Site withProtector(String address) {
            return new Site(name, nodes, controller, address, ranks, spare);
        }
    }

    /**
     * Where one rank runs.
     *
     * @param rank the world rank
     * @param host its node
     * @param site its site
     */
    public record RankPlace(int rank, String host, String site) {
        /** Checks the fields. */
        public RankPlace {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(site, "site");
            if (rank < 0) {
                throw new IllegalArgumentException("rank " + rank + " is negative");
            }
        }
    }

    /** How {@link #replace} placed a lost site's ranks (the paper's Figs. 3–5). */
    public enum Kind {
        /** On a spare site, which takes the lost site's row (Fig. 3). */
        SPARE_SITE,
        /** On the protector's own site, which takes the lost site's ranks (Fig. 4). */
        PROTECTOR_SITE,
        /** On the protector's own site, the last one left: no other site keeps its checkpoints (Fig. 5). */
        EXPOSED
    }

    /**
     * The result of {@link #replace}.
     *
     * @param failed the lost site
     * @param target where its ranks run now
     * @param kind which of the paper's situations it is
     * @param ranks the ranks that moved
     * @param after the table after the move
     */
    public record Move(String failed, String target, Kind kind, List<Integer> ranks, Topology after) {
    }

    /** The line prefix of a node protector's address in {@link #encode()}'s text. */
    private static final String NODE_LINE = "node\t";

    private final List<Site> sites;
    private final long version;
    private final Map<String, String> nodeProtectors; // node -> host:port of its node protector, in insertion order
    private final TableChange change; // what made this table from version - 1

    private Topology(List<Site> sites, long version) {
        this(sites, version, Map.of(), TableChange.NONE);
    }

    private Topology(List<Site> sites, long version, Map<String, String> nodeProtectors, TableChange change) {
        this.sites = List.copyOf(sites);
        this.version = version;
        this.change = Objects.requireNonNull(change, "change");
        this.nodeProtectors = Collections.unmodifiableMap(new LinkedHashMap<>(nodeProtectors));
        Map<String, Site> seen = new LinkedHashMap<>();
        TreeSet<Integer> ranks = new TreeSet<>();
        for (Site s : this.sites) {
            if (seen.put(s.name(), s) != null) {
                throw new IllegalArgumentException("site " + s.name() + " appears twice in the table");
            }
            for (int r : s.ranks()) {
                if (!ranks.add(r)) {
                    throw new IllegalArgumentException("rank " + r + " appears in two sites");
                }
            }
        }
        if (ring().isEmpty()) {
            throw new IllegalArgumentException("the table has no site running ranks");
        }
    }

    /**
     * The table of where the ranks run, sites in the order of their lowest rank, then the spare sites.
     *
     * @param places one entry per rank
     * @param spares the spare sites, in the order they are to be used
     * @throws IllegalArgumentException if a rank appears twice, a node is in two sites, or a spare's name is a site's
     */
    public static Topology of(List<RankPlace> places, List<Site> spares) {
        List<RankPlace> sorted = new ArrayList<>(places);
        sorted.sort((a, b) -> Integer.compare(a.rank(), b.rank()));
        Map<String, List<String>> nodes = new LinkedHashMap<>();
        Map<String, List<Integer>> ranks = new LinkedHashMap<>();
        Map<String, String> siteOfNode = new LinkedHashMap<>();
        for (RankPlace p : sorted) {
            String other = siteOfNode.putIfAbsent(p.host(), p.site());
            if (other != null && !other.equals(p.site())) {
                throw new IllegalArgumentException("node " + p.host() + " is in two sites, " + other + " and " + p.site()
                        + ": give every node of a site the same SITE");
            }
            List<String> n = nodes.computeIfAbsent(p.site(), k -> new ArrayList<>());
            if (!n.contains(p.host())) {
                n.add(p.host());
            }
            ranks.computeIfAbsent(p.site(), k -> new ArrayList<>()).add(p.rank());
        }
        List<Site> rows = new ArrayList<>();
        nodes.forEach((site, n) -> rows.add(new Site(site, n, n.get(0), "", ranks.get(site), false)));
        for (Site s : spares) {
            if (!s.spare()) {
                throw new IllegalArgumentException("site " + s.name() + " is given as a spare but runs ranks " + s.ranks());
            }
            rows.add(s);
        }
        return new Topology(rows, 1);
    }

    /**
     * Builds the table collectively: every rank tells its node and site ({@code allgather}), so every rank returns
     * the same table. Call it on every rank of the group at the same point.
     *
     * @param group the job's group
     * @param host this rank's node ({@code HOST})
     * @param site this rank's site ({@code SITE})
     * @param spares the spare sites (the same on every rank)
     * @throws io.ironloop.group.ProcessFailedException if a rank fails meanwhile
     */
    public static Topology agree(ProcessGroup group, String host, String site, List<Site> spares) {
        byte[][] all = group.allgather((host + "\n" + site).getBytes(StandardCharsets.UTF_8));
        List<RankPlace> places = new ArrayList<>();
        for (int r = 0; r < all.length; r++) {
            String[] hs = new String(all[r], StandardCharsets.UTF_8).split("\n", 2);
            places.add(new RankPlace(group.worldRank(r), hs[0], hs[1]));
        }
        return of(places, spares);
    }

    /** The name of the single site of a job that sets no {@code SITE}. */
    public static final String DEFAULT_SITE = "site";

    /**
     * This process's site: {@code SITE} from the parameter file or the environment ({@code IRONLOOP_SITE}), else
     * {@value #DEFAULT_SITE}.
     */
    public static String siteOf(Parameters parameters) {
        String s = parameters.get(GroupKeys.SITE);
        return s == null || s.isBlank() ? DEFAULT_SITE : s.strip();
    }

    /** Every row: the ring's sites in order, then the spare sites. */
    public List<Site> sites() {
        return sites;
    }

    /** The sites running ranks, in ring order. */
    public List<Site> ring() {
        return sites.stream().filter(s -> !s.spare()).toList();
    }

    /** The spare sites, in the order they are used. */
    public List<Site> spares() {
        return sites.stream().filter(Site::spare).toList();
    }

    /** The table's version: 1 at start, one more after every {@link #replace}. */
    public long version() {
        return version;
    }

    /**
     * The row of a site.
     *
     * @throws NoSuchElementException if the table has no such site
     */
    public Site site(String name) {
        return sites.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("site " + name + " is not in the table " + names()));
    }

    /** Whether the table has a row of that name. */
    public boolean has(String name) {
        return sites.stream().anyMatch(s -> s.name().equals(name));
    }

    /**
     * The site running a rank.
     *
     * @throws NoSuchElementException if no site runs it
     */
    public String siteOf(int rank) {
        return ring().stream().filter(s -> s.ranks().contains(rank)).map(Site::name).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no site of " + names() + " runs rank " + rank));
    }

    /** The site that protects {@code site}: the one before it in the ring (the first's is the last). */
    public Site protectorOf(String site) {
        return neighbour(site, -1);
    }

    /** The site that {@code site} protects: the one after it in the ring (the last's is the first). */
    public Site protectedBy(String site) {
        return neighbour(site, +1);
    }

    private Site neighbour(String site, int step) {
        List<Site> ring = ring();
        int i = indexIn(ring, site);
        return ring.get(Math.floorMod(i + step, ring.size()));
    }

    private int indexIn(List<Site> ring, String site) {
        for (int i = 0; i < ring.size(); i++) {
            if (ring.get(i).name().equals(site)) {
                return i;
            }
        }
        throw new NoSuchElementException("site " + site + " is not in the ring " + ring.stream().map(Site::name).toList());
    }

    /** This table with the protector addresses given (site name to {@code host:port}); other rows unchanged. */
    public Topology withProtectors(Map<String, String> addresses) {
        List<Site> rows = new ArrayList<>();
        for (Site s : sites) {
            rows.add(addresses.containsKey(s.name()) ? s.withProtector(addresses.get(s.name())) : s);
        }
        return new Topology(rows, version, nodeProtectors, change);
    }

    /**
     * This table with the node protectors' addresses given (node name to {@code host:port}; RADIC's node level, {@link
     * NodeProtector}); other entries unchanged.
     */
    public Topology withNodeProtectors(Map<String, String> addresses) {
        Map<String, String> all = new LinkedHashMap<>(nodeProtectors);
        all.putAll(addresses);
        return new Topology(sites, version, all, change);
    }

    /**
     * The node protectors of a site: its nodes that have one, in node order, with their {@code host:port}. Empty when
     * the site runs no node level (one node, or a table without node addresses).
     *
     * @throws NoSuchElementException if the table has no such site
     */
    public Map<String, String> nodeProtectors(String site) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : site(site).nodes()) {
            if (nodeProtectors.containsKey(n)) {
                out.put(n, nodeProtectors.get(n));
            }
        }
        return out;
    }

    /**
     * A node of a site, not its controller, is lost (its two ring neighbours both lost it): it leaves the site's row
     * and its node protector's address the table. The site keeps its ranks, its controller and its place in the ring.
     *
     * @param site a site of the table
     * @param node one of its nodes, not the controller (see {@link #failover})
     * @return the next table (version + 1)
     * @throws IllegalArgumentException if {@code node} is not a node of {@code site} or is its controller
     */
    public Topology nodeLost(String site, String node) {
        Site row = site(site);
        if (row.controller().equals(node)) {
            throw new IllegalArgumentException("node " + node + " is the controller of site " + site + ": fail its cluster protector over"
                    + " to another node with failover(site, newController, newProtector)");
        }
        return withoutNode(row, node, row.controller(), row.protector(), TableChange.of("nodeLost", site, node));
    }

    /**
     * Controller failover: the controller node of a site is lost and {@code newController}, another of its nodes, runs
     * the site's cluster protector from now on, at {@code newProtector}. The lost node leaves the row and its node
     * protector's address the table; the site keeps its ranks and its place in the ring.
     *
     * @param site a site of the table
     * @param newController another node of the site
     * @param newProtector the new cluster protector's {@code host:port}
     * @return the next table (version + 1)
     * @throws IllegalArgumentException if {@code newController} is not another node of the site
     */
    public Topology failover(String site, String newController, String newProtector) {
        Site row = site(site);
        if (row.controller().equals(newController) || !row.nodes().contains(newController)) {
            throw new IllegalArgumentException("node " + newController + " is not another node of site " + site + " " + row.nodes()
                    + " (controller " + row.controller() + ")");
        }
        return withoutNode(row, row.controller(), newController, Objects.requireNonNull(newProtector, "newProtector"),
                TableChange.of("failover", site, row.controller(), newController, newProtector));
    }

    private Topology withoutNode(Site row, String node, String controller, String protector, TableChange made) {
        if (!row.nodes().contains(node)) {
            throw new IllegalArgumentException("node " + node + " is not a node of site " + row.name() + " " + row.nodes());
        }
        List<String> nodes = new ArrayList<>(row.nodes());
        nodes.remove(node);
        List<Site> rows = new ArrayList<>(sites);
        rows.set(rows.indexOf(row), new Site(row.name(), nodes, controller, protector, row.ranks(), row.spare()));
        Map<String, String> addresses = new LinkedHashMap<>(nodeProtectors);
        addresses.remove(node);
        return new Topology(rows, version + 1, addresses, made);
    }

    /**
     * This table without the spare site {@code name} (version + 1): a spare that does not answer when a lost site's
     * ranks are to be placed on it leaves the table, so that the next spare, or the lost site's protector, takes them.
     *
     * @throws IllegalArgumentException if {@code name} is not a spare site of this table
     */
    public Topology withoutSpare(String name) {
        Site spare = site(name);
        if (!spare.spare()) {
            throw new IllegalArgumentException("site " + name + " runs ranks: only a spare site can leave the table this way");
        }
        List<Site> rows = new ArrayList<>(sites);
        rows.remove(spare);
        return new Topology(rows, version + 1, nodeProtectors, TableChange.of("withoutSpare", name));
    }

    /**
     * Algorithms 3 and 4 on the table: moves the ranks of a lost site. The first spare site takes the lost site's row
     * (its place in the ring, its ranks); without a spare, the lost site's protector takes its ranks and the ring
     * loses a row. The lost site leaves the table.
     *
     * @param failed the lost site, in the ring
     * @return where its ranks went and the new table (version + 1)
     * @throws NoSuchElementException if {@code failed} is not in the ring
     * @throws IllegalStateException if {@code failed} is the only site of the ring: nobody holds its checkpoint
     */
    public Move replace(String failed) {
        List<Site> ring = ring();
        int at = indexIn(ring, failed);
        if (ring.size() == 1) {
            throw new IllegalStateException("site " + failed + " is the last site running ranks: no other site holds its checkpoint");
        }
        Site lost = ring.get(at);
        List<Site> rows = new ArrayList<>(sites);
        List<Site> spares = spares();
        if (!spares.isEmpty()) {
            Site spare = spares.get(0);
            rows.remove(spare);
            rows.set(rows.indexOf(lost), new Site(spare.name(), spare.nodes(), spare.controller(), spare.protector(), lost.ranks(), false));
            return new Move(failed, spare.name(), Kind.SPARE_SITE, lost.ranks(), new Topology(rows, version + 1, nodeProtectors,
                    TableChange.of("replace", failed, spare.name())));
        }
        Site protector = protectorOf(failed);
        List<Integer> merged = new ArrayList<>(protector.ranks());
        merged.addAll(lost.ranks());
        rows.set(rows.indexOf(protector), new Site(protector.name(), protector.nodes(), protector.controller(), protector.protector(),
                merged, false));
        rows.remove(lost);
        Topology after = new Topology(rows, version + 1, nodeProtectors, TableChange.of("replace", failed, protector.name()));
        return new Move(failed, protector.name(), after.ring().size() == 1 ? Kind.EXPOSED : Kind.PROTECTOR_SITE, lost.ranks(), after);
    }

    /**
     * The one table every protector adopts of this one and {@code other}, whatever order it heard them in: the newer
     * one; of two different tables of the same version — two changes made at the same time from the same table, such
     * as a controller failover of one site and the recovery of another — a table of version + 1 that has both: the
     * change that orders second ({@code TableChange}: by kind, then arguments) made again on the table of the first.
     * Where the second cannot be made again there (both changes took the same node, site or spare), the first alone:
     * the protector whose change it was sees it undone — a lost site still in the ring is suspected and declared again,
     * a cluster protector no longer named in the table steps down.
     *
     * <p>Commutative: {@code a.merge(b)} equals {@code b.merge(a)} — except for two different tables at start (no change
     * made them), where each keeps itself: a job's protectors all start from the same table, and a test or benchmark
     * that gives one protector its own view (another's address through an {@link EmulatedLink}) keeps it.
     *
     * @param other another table of the same job
     * @return this, {@code other}, or their merge
     */
    public Topology merge(Topology other) {
        if (other.version != version) {
            return other.version > version ? other : this;
        }
        if (other.equals(this) || change == TableChange.NONE && other.change == TableChange.NONE) {
            return this; // two tables at start: each protector keeps its own (a test may give each its own view of the addresses)
        }
        int order = change.compareTo(other.change);
        if (order == 0) {
            order = encode().compareTo(other.encode()); // the same change made differently: the text decides
        }
        Topology first = order < 0 ? this : other;
        Topology second = order < 0 ? other : this;
        if (second.change == TableChange.NONE) {
            return first;
        }
        try {
            return second.change.applyTo(first);
        } catch (IllegalArgumentException | IllegalStateException | NoSuchElementException conflict) {
            return first;
        }
    }

    /**
     * A digest of the table's text: what a heartbeat carries besides the version, so that two protectors holding
     * different tables of the same version find out and merge them.
     */
    public long digest() {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(encode().getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    /**
     * The table as text, one row per line (see {@link #parse}), then one line {@code node NAME host:port} per node
     * protector: what protectors send each other after a recovery or a controller failover.
     */
    public String encode() {
        StringBuilder b = new StringBuilder("version " + version + "\n");
        if (change != TableChange.NONE) {
            b.append(change.encode()).append('\n');
        }
        for (Site s : sites) {
            b.append(s.name()).append('\t').append(s.spare() ? "spare" : "active").append('\t').append(s.controller()).append('\t')
                    .append(String.join(",", s.nodes())).append('\t').append(s.protector().isEmpty() ? "-" : s.protector()).append('\t')
                    .append(s.ranks().isEmpty() ? "-" : String.join(",", s.ranks().stream().map(String::valueOf).toList())).append('\n');
        }
        nodeProtectors.forEach((node, address) -> b.append(NODE_LINE).append(node).append('\t').append(address).append('\n'));
        return b.toString();
    }

    /**
     * Reads what {@link #encode} wrote.
     *
     * @throws IllegalArgumentException if the text is not a table
     */
    public static Topology parse(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].startsWith("version ")) {
            throw new IllegalArgumentException("not a site table (no 'version' line): " + text);
        }
        List<Site> rows = new ArrayList<>();
        Map<String, String> nodes = new LinkedHashMap<>();
        TableChange change = TableChange.NONE;
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].startsWith(TableChange.LINE)) {
                change = TableChange.parse(lines[i]);
                continue;
            }
            String[] f = lines[i].split("\t");
            if (lines[i].startsWith(NODE_LINE) && f.length == 3) { // a node protector's address
                nodes.put(f[1], f[2]);
                continue;
            }
            if (f.length != 6) {
                throw new IllegalArgumentException("site table line " + (i + 1) + " has " + f.length + " fields, expected 6: " + lines[i]);
            }
            List<Integer> ranks = f[5].equals("-") ? List.of() : java.util.Arrays.stream(f[5].split(",")).map(Integer::valueOf).toList();
            rows.add(new Site(f[0], List.of(f[3].split(",")), f[2], f[4].equals("-") ? "" : f[4], ranks, f[1].equals("spare")));
        }
        return new Topology(rows, Long.parseLong(lines[0].substring("version ".length()).trim()), nodes, change);
    }

    /** The table laid out as the paper's Table 1: number, site, nodes, controller node, cluster protector. */
    public String table() {
        StringBuilder b = new StringBuilder(String.format("%-3s %-12s %-24s %-12s %-12s %s%n", "#", "site", "nodes", "controller",
                "protector", "ranks"));
        int i = 1;
        for (Site s : sites) {
            b.append(String.format("%-3d %-12s %-24s %-12s %-12s %s%n", i++, s.name(), String.join(",", s.nodes()), s.controller(),
                    s.spare() ? "-" : protectorOf(s.name()).name(), s.spare() ? "spare" : s.ranks()));
        }
        return b.toString();
    }

    private List<String> names() {
        return Collections.unmodifiableList(sites.stream().map(Site::name).toList());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Topology t && t.version == version && t.sites.equals(sites) && t.nodeProtectors.equals(nodeProtectors)
                && t.change.equals(change);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sites, version, nodeProtectors, change);
    }

    @Override
    public String toString() {
        return "Topology v" + version + " " + names();
    }
}
