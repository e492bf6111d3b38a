/**
 * Site protection (H-RADIC): the site table and ring ({@link io.ironloop.sites.Topology}), the detection state machine
 * ({@link io.ironloop.sites.SiteDetector}), the cluster protector that runs it over sockets and replicates its site's
 * committed lines to the neighbour site ({@link io.ironloop.sites.SiteProtector}), the recovery of a lost site
 * ({@link io.ironloop.sites.SiteRecovery}), and RADIC's node level inside a site: node protectors in a heartbeat ring
 * and the failover of the cluster protector when its controller node is lost ({@link io.ironloop.sites.NodeProtector}),
 * and a rank's way to its site's protector that follows it when it moves (error masking:
 * {@link io.ironloop.sites.SiteDirectory}). See {@code docs/sites.md}.
 */
package io.ironloop.sites;
