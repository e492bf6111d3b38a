package io.ironloop.launcher;

import io.ironloop.group.launch.LaunchEnvironment;
import java.util.OptionalInt;

/**
 * The host (failure domain) each rank is told it runs on, as {@code IRONLOOP_HOST}: this machine's name, or
 * with {@code --fake-hosts K} rank r of M rank JVMs on {@code host-⌊r·K/M⌋} — consecutive ranks share a host,
 * as they do on real clusters — so that failure-domain-aware placement of partner copies can be exercised on
 * one machine. With {@code --fake-sites S} also the site each rank is told it runs on, as {@code IRONLOOP_SITE}:
 * {@code site-⌊r·S/M⌋}, for site protection (docs/sites.md). Immutable.
 */
final class RankHosts {
    /** Prefix of a fake host's name. */
    static final String FAKE_PREFIX = "host-";
    /** Prefix of a fake site's name. */
    static final String FAKE_SITE_PREFIX = "site-";

    private final int worldSize;
    private final OptionalInt fake;
    private final String realHost;
    private final OptionalInt fakeSites;

    private RankHosts(int worldSize, OptionalInt fake, String realHost, OptionalInt fakeSites) {
        this.worldSize = worldSize;
        this.fake = fake;
        this.realHost = realHost;
        this.fakeSites = fakeSites;
    }

    /**
     * Checks that the launcher can protect the fake sites of a job (see {@link SiteProtectors}).
     *
     * @throws IllegalStateException without fake sites (at least 2) or a checkpoint folder, or when a fake host would
     *     be in two sites
     */
    static void checkSiteProtection(int worldSize, Integer fakeHosts, Integer fakeSites, java.nio.file.Path folder) {
        if (fakeSites == null || fakeSites < 2) {
            throw new IllegalStateException("site protection needs the ranks spread over at least 2 sites (--fake-sites S, S >= 2;"
                    + " 3 or more for a third site to verify a loss)");
        }
        if (folder == null) {
            throw new IllegalStateException("site protection needs the job's checkpoint folder (FT_FOLDER): the protectors ship"
                    + " the lines its ranks commit there");
        }
        if (fakeHosts != null) {
            RankHosts hosts = new RankHosts(worldSize, OptionalInt.of(fakeHosts), null, OptionalInt.of(fakeSites));
            java.util.Map<String, String> siteOfHost = new java.util.HashMap<>();
            for (int r = 0; r < worldSize; r++) {
                String host = hosts.of(r);
                String site = hosts.siteOf(r).orElseThrow();
                String other = siteOfHost.putIfAbsent(host, site);
                if (other != null && !other.equals(site)) {
                    throw new IllegalStateException("--fake-hosts " + fakeHosts + " puts " + host + " in two sites, " + other + " and "
                            + site + ": give --fake-hosts a multiple of --fake-sites " + fakeSites);
                }
            }
        }
    }

    /** The hosts of a spec's ranks. */
    static RankHosts of(LaunchSpec spec) {
        return new RankHosts(spec.worldSize(), spec.fakeHosts(),
                spec.fakeHosts().isPresent() ? null : LaunchEnvironment.localHostName(), spec.fakeSites());
    }

    /**
     * The host of a rank.
     *
     * @param rank the rank, 0 ≤ rank &lt; world size
     * @return its host name
     */
    String of(int rank) {
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " is not in 0-" + (worldSize - 1));
        }
        return fake.isPresent() ? FAKE_PREFIX + (long) rank * fake.getAsInt() / worldSize : realHost;
    }

    /**
     * The site of a rank, when the launcher fakes sites.
     *
     * @param rank the rank, 0 ≤ rank &lt; world size
     * @return {@code site-⌊rank·S/M⌋} with {@code --fake-sites S}; empty otherwise
     */
    java.util.Optional<String> siteOf(int rank) {
        of(rank); // checks the rank
        return fakeSites.isPresent() ? java.util.Optional.of(FAKE_SITE_PREFIX + (long) rank * fakeSites.getAsInt() / worldSize)
                : java.util.Optional.empty();
    }
}
