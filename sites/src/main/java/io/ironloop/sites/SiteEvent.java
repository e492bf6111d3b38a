package io.ironloop.sites;

import java.time.Duration;
import java.util.List;

/** What a {@link SiteProtector} reports: detection, verification, recovery, the table, replication. */
public sealed interface SiteEvent {
    /** The protector's site. */
    String site();

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
}
