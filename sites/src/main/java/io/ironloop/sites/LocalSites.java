package io.ironloop.sites;

import io.ironloop.group.launch.JobSecret;
import io.ironloop.sites.Topology.RankPlace;
import io.ironloop.sites.Topology.Site;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Every cluster protector of a job started in this JVM on loopback, one per site (the running sites, then the spare
 * sites), each on its own kernel-chosen port: how a supervisor on one machine ({@code ironloop demo sites}) and the
 * tests emulate sites. The table is built from the ranks' places ({@link Topology#of}) with every protector's address.
 * {@link #kill(String)} closes one protector as its site is lost: its socket stops answering, as a killed one would.
 */
public final class LocalSites implements AutoCloseable {
    private final Topology table;
    private final Map<String, SiteProtector> protectors;

    private LocalSites(Topology table, Map<String, SiteProtector> protectors) {
        this.table = table;
        this.protectors = protectors;
    }

    /**
     * Starts one protector per site of the table built from {@code places} and {@code spares}.
     *
     * @param places where every rank runs (its host and site)
     * @param spares the spare sites, in order
     * @param siteFolder a site's store (its ranks' {@code FT_FOLDER}; sites may share one)
     * @param heldRoot where protector {@code S} keeps the site checkpoints it holds: {@code heldRoot/held-S}
     * @param secret the job secret every protector proves
     * @param heartbeat {@code SITE_HEARTBEAT}
     * @param timeout {@code SITE_TIMEOUT}
     * @param events receives every protector's events (from the protectors' threads)
     * @return the started protectors
     * @throws IOException when a port cannot be bound
     */
    public static LocalSites start(List<RankPlace> places, List<Site> spares, Function<String, Path> siteFolder, Path heldRoot,
            JobSecret secret, Duration heartbeat, Duration timeout, Consumer<SiteEvent> events) throws IOException {
        Topology bare = Topology.of(places, spares);
        Map<String, ServerSocket> sockets = new LinkedHashMap<>();
        Map<String, String> addresses = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        bare.sites().forEach(s -> names.add(s.name()));
        try {
            for (String s : names) {
                ServerSocket ss = SiteProtector.listen(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                sockets.put(s, ss);
                addresses.put(s, "127.0.0.1:" + ss.getLocalPort());
            }
        } catch (IOException e) {
            closeAll(sockets.values());
            throw e;
        }
        Topology table = bare.withProtectors(addresses);
        Map<String, SiteProtector> started = new LinkedHashMap<>();
        LocalSites sites = new LocalSites(table, started);
        try {
            for (String s : names) {
                started.put(s, SiteProtector.start(new SiteProtector.Config(s, table, siteFolder.apply(s), heldRoot.resolve("held-" + s),
                        secret, heartbeat, timeout), sockets.get(s), events));
            }
        } catch (RuntimeException e) {
            sites.close();
            closeAll(sockets.values());
            throw e;
        }
        return sites;
    }

    /** @return the table every protector started with (version 1) */
    public Topology table() {
        return table;
    }

    /**
     * @param site a site of the table
     * @return its protector, unless it was killed
     */
    public Optional<SiteProtector> protector(String site) {
        synchronized (protectors) {
            return Optional.ofNullable(protectors.get(site));
        }
    }

    /**
     * Stops the protector of {@code site} as its site is lost (nothing is announced to the others).
     *
     * @param site a site of the table
     * @return whether it was running
     */
    public boolean kill(String site) {
        SiteProtector p;
        synchronized (protectors) {
            p = protectors.remove(site);
        }
        if (p != null) {
            p.close();
        }
        return p != null;
    }

    /** Stops every protector still running. */
    @Override
    public void close() {
        List<SiteProtector> all;
        synchronized (protectors) {
            all = new ArrayList<>(protectors.values());
            protectors.clear();
        }
        all.forEach(SiteProtector::close);
    }

    private static void closeAll(Iterable<ServerSocket> sockets) {
        for (ServerSocket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
