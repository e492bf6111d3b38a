package io.ironloop.launcher;

import io.ironloop.group.GroupKeys;
import java.time.Duration;
import java.util.Objects;

/**
 * How the launcher protects the sites of a job spread over fake sites ({@code ironloop run --fake-sites S}): one
 * cluster protector process per site and per spare site, or one per node on a site that {@code --fake-hosts} gives
 * several nodes (its node protectors, the controller node's running the cluster protector; docs/sites.md). Immutable.
 *
 * @param spareSites the spare sites ({@code --spare-sites K}, named {@code spare-0 … spare-(K-1)}), where a lost
 *     site's ranks go; 0: a lost site's ranks go to the site of its protector
 * @param heartbeat {@code SITE_HEARTBEAT}: between two heartbeats of a protector
 * @param timeout {@code SITE_TIMEOUT}: silence after which a protector asks a third site to check the site it watches
 * @param encrypt {@code SITE_ENCRYPT}: the protectors' connections (and the launcher's own, asking them for the table)
 *     are encrypted after their handshake
 */
public record SiteProtection(int spareSites, Duration heartbeat, Duration timeout, boolean encrypt) {
    /**
     * Checks the fields.
     *
     * @throws IllegalArgumentException for negative spare sites or a timeout not above two heartbeats
     */
    public SiteProtection {
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(timeout, "timeout");
        if (spareSites < 0) {
            throw new IllegalArgumentException("--spare-sites must not be negative, got " + spareSites);
        }
        if (heartbeat.isZero() || heartbeat.isNegative() || timeout.compareTo(heartbeat.multipliedBy(2)) <= 0) {
            throw new IllegalArgumentException("SITE_TIMEOUT (" + timeout + ") must exceed two SITE_HEARTBEATs (" + heartbeat + ")");
        }
    }

    /** {@code spareSites} spare sites with the default heartbeat, timeout and encryption. */
    public static SiteProtection withSpares(int spareSites) {
        return new SiteProtection(spareSites, GroupKeys.SITE_HEARTBEAT.defaultValue(), GroupKeys.SITE_TIMEOUT.defaultValue(),
                GroupKeys.SITE_ENCRYPT.defaultValue());
    }
}
