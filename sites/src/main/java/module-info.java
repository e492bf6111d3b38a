/**
 * Hierarchical protection across sites (H-RADIC, paper 004): the table of sites, nodes, controller nodes and
 * protectors ({@link io.ironloop.sites.Topology}), the site ring, cluster protectors that watch each other with
 * verification by a third site ({@link io.ironloop.sites.SiteDetector}, {@link io.ironloop.sites.SiteProtector}),
 * site checkpoints kept by the neighbour site, and recovery of a lost site on a spare site
 * ({@link io.ironloop.sites.SiteRecovery}).
 */
module io.ironloop.sites {
    requires transitive io.ironloop.core;
    requires transitive io.ironloop.group;
    requires io.ironloop.runtime;
    requires org.slf4j;

    exports io.ironloop.sites;

    // a rank on a protected site tells its site's cluster protector about each line it commits (SiteDirectory)
    provides io.ironloop.runtime.event.CommittedLineObserver.Provider with io.ironloop.sites.internal.LineNotices;
}
