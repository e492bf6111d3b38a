package io.ironloop.sites;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link SiteProtector} reports: detection, verification, recovery, the table, replication. A protector process
 * ({@link SiteProtectorMain}) prints each as one line, {@code event } and {@link #line()}, which {@link #parse} reads
 * back as a type and fields: how a supervisor that started the protectors follows them.
 */
public sealed interface SiteEvent {
    /** The protector's site. */
    String site();

    /** The event's type: the record's simple name ({@code Declared}, {@code Recovered}, ...). */
    default String type() {
        return getClass().getSimpleName();
    }

    /**
     * The event's fields, by name, in a fixed order, as single-line text: lists joined by {@code ','}, durations in
     * milliseconds ({@code took_ms}), a recovery's move flattened ({@code failed}, {@code target}, {@code kind},
     * {@code ranks}, {@code table_version}), a table by its version and where each rank runs ({@code ranks}:
     * {@code rank@site,...}).
     */
    default Map<String, String> fields() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("site", site());
        if (this instanceof Suspected e) {
            f.put("target", e.target());
            f.put("third", e.third());
        } else if (this instanceof LinkCut e) {
            f.put("target", e.target());
            f.put("third", e.third());
        } else if (this instanceof Declared e) {
            f.put("target", e.target());
            f.put("verified_by", e.verifiedBy().isEmpty() ? "-" : e.verifiedBy());
        } else if (this instanceof Recovered e) {
            f.put("failed", e.move().failed());
            f.put("target", e.move().target());
            f.put("kind", e.move().kind().name());
            f.put("ranks", join(e.move().ranks()));
            f.put("series", join(e.series()));
            f.put("lines", String.valueOf(e.lines()));
            f.put("newest_iteration", String.valueOf(e.newestIteration()));
            f.put("took_ms", String.valueOf(e.took().toMillis()));
            f.put("table_version", String.valueOf(e.move().after().version()));
        } else if (this instanceof TableChanged e) {
            f.put("table_version", String.valueOf(e.table().version()));
            List<String> where = new java.util.ArrayList<>();
            for (Topology.Site s : e.table().ring()) {
                s.ranks().forEach(r -> where.add(r + "@" + s.name()));
            }
            f.put("ranks", join(where));
        } else if (this instanceof Shipped e) {
            f.put("series", e.series());
            f.put("iteration", String.valueOf(e.iteration()));
            f.put("bytes", String.valueOf(e.bytes()));
            f.put("took_ms", String.valueOf(e.took().toMillis()));
        } else if (this instanceof Stopped e) {
            f.put("reason", e.reason().replace('\n', ' '));
        } else if (this instanceof NodeDeclared e) {
            f.put("node", e.node());
            f.put("target", e.target());
            f.put("verified_by", e.verifiedBy().isEmpty() ? "-" : e.verifiedBy());
        } else if (this instanceof FailedOver e) {
            f.put("node", e.node());
            f.put("failed", e.failed());
            f.put("address", e.address());
            f.put("table_version", String.valueOf(e.tableVersion()));
        } else if (this instanceof NodeStopped e) {
            f.put("node", e.node());
            f.put("reason", e.reason().replace('\n', ' '));
        }
        return f;
    }

    /** The event as one line: its type, then {@code name=value} for each of its {@link #fields()}, space-separated. */
    default String line() {
        StringBuilder b = new StringBuilder(type());
        fields().forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * Reads a {@link #line()} back.
     *
     * @param line the text after {@code event }
     * @return the type and the fields (a value with spaces — a reason — is read to the next {@code name=})
     * @throws IllegalArgumentException if the line has no type
     */
    static Map.Entry<String, Map<String, String>> parse(String line) {
        String[] tokens = line.strip().split(" ");
        if (tokens[0].isEmpty() || tokens[0].contains("=")) {
            throw new IllegalArgumentException("not a site event line: '" + line + "'");
        }
        Map<String, String> f = new LinkedHashMap<>();
        String last = null;
        for (int i = 1; i < tokens.length; i++) {
            int eq = tokens[i].indexOf('=');
            if (eq > 0 && tokens[i].substring(0, eq).matches("[a-z_]+")) {
                last = tokens[i].substring(0, eq);
                f.put(last, tokens[i].substring(eq + 1));
            } else if (last != null) {
                f.put(last, f.get(last) + " " + tokens[i]);
            }
        }
        return Map.entry(tokens[0], f);
    }

    private static String join(List<?> values) {
        return values.isEmpty() ? "-" : String.join(",", values.stream().map(String::valueOf).toList());
    }

    /** The watched site went silent; {@code third} was asked to check it. */
    record Suspected(String site, String target, String third) implements SiteEvent {
    }

    /** {@code third} still reaches {@code target}: only the link to it is cut, nothing is declared. */
    record LinkCut(String site, String target, String third) implements SiteEvent {
    }

    /** {@code target} is declared failed, confirmed by {@code verifiedBy} (empty in a ring of two). */
    record Declared(String site, String target, String verifiedBy) implements SiteEvent {
    }

    /**
     * The lost site's lines were placed on {@code move.target()} and the new table announced to every protector.
     *
     * @param series the series placed (one per rank of the lost site)
     * @param lines the lines copied, over every series
     * @param newestIteration the newest iteration placed for every series (the site checkpoint's iteration)
     * @param took from the declaration to the announced table
     */
    record Recovered(String site, Topology.Move move, List<String> series, int lines, long newestIteration, Duration took)
            implements SiteEvent {
    }

    /** A new table was adopted (announced by the protector that recovered a site). */
    record TableChanged(String site, Topology table) implements SiteEvent {
    }

    /** A committed line of this site is now held by the protecting site. */
    record Shipped(String site, String series, long iteration, long bytes, Duration took) implements SiteEvent {
    }

    /** This protector stopped: it lost both neighbours, or was closed. */
    record Stopped(String site, String reason) implements SiteEvent {
    }

    /**
     * RADIC's node level: the node protector of {@code node} declared {@code target}, another node of the site, failed,
     * confirmed by {@code verifiedBy} (the target's other ring neighbour; empty in a ring of two nodes).
     */
    record NodeDeclared(String site, String node, String target, String verifiedBy) implements SiteEvent {
    }

    /**
     * Controller failover: the site's controller node {@code failed} was lost and {@code node} now runs the site's
     * cluster protector, at {@code address}; the table of version {@code tableVersion} says so and was announced.
     */
    record FailedOver(String site, String node, String failed, String address, long tableVersion) implements SiteEvent {
    }

    /** The node protector of {@code node} stopped: it lost both ring neighbours, or its neighbours declared it failed. */
    record NodeStopped(String site, String node, String reason) implements SiteEvent {
    }
}
