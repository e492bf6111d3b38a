package io.ironloop.cli;

import io.ironloop.Folders;
import io.ironloop.core.EngineKeys;
import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import io.ironloop.examples.blocks.heat.HeatBlocksRank;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.launcher.Application;
import io.ironloop.launcher.LaunchResult;
import io.ironloop.launcher.LaunchSpec;
import io.ironloop.launcher.Launcher;
import io.ironloop.launcher.SignalForwarding;
import io.ironloop.launcher.TimelineEvent;
import io.ironloop.sites.LocalSites;
import io.ironloop.sites.SiteEvent;
import io.ironloop.sites.SiteProtector;
import io.ironloop.sites.Topology;
import io.ironloop.sites.Topology.RankPlace;
import io.ironloop.sites.Topology.Site;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ironloop demo sites}: the heat block example on three sites plus one spare site, one whole site lost mid-run.
 * The launcher runs the three rank JVMs with {@code --fake-sites 3 --fake-hosts 3} (rank r on {@code site-r}, its
 * partner copies on another site); the demo itself starts the four cluster protectors ({@link LocalSites}: threads of
 * this JVM, each on its own loopback socket; sites 0–2 share the job's store, the spare has its own). Once the
 * protector of {@code site-0} holds a line of rank 1, the demo loses {@code site-1}: SIGKILL to rank 1's JVM and its
 * protector stopped. The survivors recover rank 1 online from the partner copies and finish; the protectors detect the
 * loss, have it verified by {@code site-2}, place {@code site-1}'s site checkpoint on the spare site and announce table
 * v2. The reference is the heat example computed failure-free in this JVM ({@link BlockReference}).
 */
final class SitesDemo {
    static final String HELP = String.format(Locale.ROOT, "%nAPP sites: the heat block example on 3 sites + 1 spare site, a whole site lost"
            + " mid-run (H-RADIC, docs/sites.md).%n"
            + "  ranks: ironloop run -n 3 --fake-sites 3 --fake-hosts 3 -- %s SIZE (rank r on site-r; partner copies on another site)%n"
            + "  protectors: one per site (site-0..2, spare), started by the demo as threads of its own JVM next to the launcher's"
            + " rank JVMs, each on its own loopback socket; not separate processes%n"
            + "  the fault: once site-0's protector holds a line of rank 1, site-1 is lost: SIGKILL to rank 1's JVM and its"
            + " protector stopped%n"
            + "  shown: detection by site-0, verification by site-2, site-1's checkpoint placed on the spare site, table v2;"
            + " the ranks recover rank 1 online%n"
            + "  reference: the heat example computed failure-free in the demo's JVM. Options: --size, --restarts only.%n",
            HeatBlocksRank.class.getName());

    private static final List<String> RANK_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:-UsePerfData");
    private static final Pattern RESULT = Pattern.compile("result sha256=([0-9a-f]{64})");
    private static final int SITES = 3;
    private static final String LOST = "site-1";
    private static final int LOST_RANK = 1;
    private static final String SPARE = "spare";
    /** The site checkpoint is taken once it holds a line this far into the run, so that the loss is mid-run. */
    private static final long KILL_AFTER = 20;
    private static final Duration HEARTBEAT = Duration.ofMillis(200);
    /** SITE_TIMEOUT's default: shorter ones declared live sites failed at load 30 with every protector in one JVM. */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Duration SITE_EVENTS = Duration.ofSeconds(60);

    private final String size;
    private final int restarts;
    private final PrintStream out;
    private final PrintStream err;
    private final Instant start = Instant.now();

    SitesDemo(String size, int restarts, PrintStream out, PrintStream err) {
        this.size = size;
        this.restarts = restarts;
        this.out = out;
        this.err = err;
    }

    int run() throws IOException, InterruptedException {
        Path temp = Files.createTempDirectory("ironloop-demo-sites-");
        Path store = temp.resolve("checkpoints");
        List<String> args = size.equals("test") ? List.of("test", "--pace-ms", "10") : List.of("demo");
        err.printf(Locale.ROOT, "demo: sites: heat (%s) on %d sites (rank r on site-r) + 1 spare site; %s will be lost mid-run%n",
                DemoApp.HEAT.describe(size), SITES, LOST);
        err.println("demo: ranks = ironloop run -n 3 --fake-sites 3 --fake-hosts 3 --restarts " + restarts + " -- "
                + HeatBlocksRank.class.getName() + " " + String.join(" ", args) + "; protectors: threads of the demo's JVM on"
                + " loopback; stores " + store + " (site-0..2) and " + temp.resolve("spare-store") + "; full output in "
                + temp.resolve("demo.log"));
        JobSecret secret = JobSecret.create(temp, "demo-sites");
        List<RankPlace> places = new ArrayList<>();
        for (int r = 0; r < SITES; r++) {
            places.add(new RankPlace(r, "host-" + r, "site-" + r)); // the names run --fake-hosts/--fake-sites give
        }
        Events events = new Events();
        boolean ok = false;
        try (PrintStream log = new PrintStream(new FileOutputStream(temp.resolve("demo.log").toFile()), true, StandardCharsets.UTF_8);
                LocalSites sites = LocalSites.start(places, List.of(Site.spare(SPARE, List.of("host-" + SPARE), "")),
                        s -> s.equals(SPARE) ? temp.resolve("spare-store") : store, temp, secret, HEARTBEAT, TIMEOUT, events::accept)) {
            progress("table v" + sites.table().version() + ": " + describe(sites.table()));
            events.onShipped = s -> {
                if (s.site().equals(LOST) && s.iteration() >= KILL_AFTER && events.killed.compareAndSet(false, true)) {
                    // not on the protector's own thread, which stopping the protector interrupts
                    Thread loss = new Thread(() -> lose(sites, events.rankPid.get(), s), "demo-site-loss");
                    loss.setDaemon(true);
                    loss.start();
                }
            };
            Optional<LaunchResult> result = launch(args, store, secret, log, events);
            if (result.isEmpty()) {
                return 2;
            }
            if (!events.killed.get()) {
                return failed("the job ended before " + LOST + "'s protector had shipped a line of rank " + LOST_RANK + " past iteration "
                        + KILL_AFTER + ": the site was never lost", temp);
            }
            if (result.get().exitStatus() != 0 || events.sha.get() == null) {
                return failed("the ranks' run failed: " + result.get().summary(), temp);
            }
            if (!events.recoveredEverywhere.await(SITE_EVENTS.toMillis(), TimeUnit.MILLISECONDS)) {
                return failed("the protectors did not recover " + LOST + " and announce the new table within " + SITE_EVENTS.toSeconds() + " s",
                        temp);
            }
            for (String s : List.of("site-0", "site-2", SPARE)) {
                Topology t = SiteProtector.fetchTable(sites.protector(s).orElseThrow().address(), secret, TIMEOUT);
                progress("asked " + s + "'s protector for the table: v" + t.version() + ", rank " + LOST_RANK + " on " + t.siteOf(LOST_RANK));
            }
            String reference = BlockReference.run(HeatBlocks.preset(size, 0)).digest();
            progress("reference: the heat example computed failure-free in this JVM");
            boolean same = reference.equals(events.sha.get());
            out.println("relaunches=" + result.get().relaunches() + " online_recoveries=" + result.get().onlineRecoveries());
            out.println("result sha256=" + events.sha.get());
            out.println("bit-identical to failure-free run: " + (same ? "yes" : "no") + " (reference sha256=" + reference + ")");
            out.flush();
            ok = same;
            if (!same) {
                err.println("demo: the results differ; the checkpoints and the full log are kept in " + temp);
            }
            return same ? 0 : 1;
        } finally {
            err.flush();
            if (ok) {
                Folders.deleteTree(temp);
            }
        }
    }

    /** Site-1 is lost: its rank JVM gets SIGKILL and its protector stops, at once. */
    private void lose(LocalSites sites, long pid, SiteEvent.Shipped shipped) {
        progress(shipped.site() + "'s protector shipped rank " + LOST_RANK + "'s line of iteration " + shipped.iteration()
                + " to site-0 (its site checkpoint is held there)");
        boolean killed = pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::destroyForcibly).orElse(false);
        sites.kill(LOST);
        progress("LOST " + LOST + ": SIGKILL to rank " + LOST_RANK + " (pid " + pid + (killed ? "" : ", already gone")
                + ") and its protector stopped");
    }

    private Optional<LaunchResult> launch(List<String> args, Path store, JobSecret secret, PrintStream log, Events events) {
        Path cwd = Path.of("").toAbsolutePath();
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(SITES).fakeHosts(SITES).fakeSites(SITES).restarts(restarts)
                .workingDirectory(cwd).secretFile(secret.file())
                .application(new Application(HeatBlocksRank.class.getName(), Optional.empty())).arguments(args)
                .environment(EngineKeys.FT_FOLDER.environmentVariable(), store.toString())
                .environment("IRONLOOP_SNAPSHOT_EVERY", "5").environment("IRONLOOP_DISK_EVERY", "1")
                .out(log).err(log)
                .eventListener(e -> {
                    if (e.type().equals(TimelineEvent.RANK_STARTED) && e.rank() == LOST_RANK) {
                        events.rankPid.set(e.pid());
                    }
                    if (e.type().equals("saved") && "disk".equals(e.fields().get("level"))) {
                        return; // a line every 5 iterations: the protectors' "shipped" lines say what matters here
                    }
                    DemoTimeline.sentence(e).ifPresent(s -> progress((e.source() == TimelineEvent.Source.RANK ? "[" + e.rank() + "] " : "") + s));
                })
                .outputListener((attempt, rank, stderr, line) -> {
                    Matcher m = RESULT.matcher(line);
                    if (!stderr && rank == 0 && m.matches()) {
                        events.sha.set(m.group(1));
                    }
                });
        RANK_JVM.forEach(b::jvmOption);
        Launcher launcher = new Launcher(b.build());
        LaunchResult result;
        try (SignalForwarding forwarding = SignalForwarding.install(launcher)) {
            result = launcher.execute();
        }
        progress(result.summary());
        int status = result.exitStatus();
        if (status == 130 || status == 143) {
            err.println("demo: interrupted: " + result.summary());
            return Optional.empty();
        }
        return Optional.of(result);
    }

    /** What the protectors report, kept for the verdict, and shown as the timeline. */
    private final class Events {
        final AtomicLong rankPid = new AtomicLong(-1);
        final AtomicBoolean killed = new AtomicBoolean();
        final AtomicReference<String> sha = new AtomicReference<>();
        /** Declared by site-0 verified by site-2, recovered onto the spare, and table v2 adopted at site-2 and the spare. */
        final CountDownLatch recoveredEverywhere = new CountDownLatch(4);
        final java.util.Set<String> shippedOnce = ConcurrentHashMap.newKeySet();
        volatile java.util.function.Consumer<SiteEvent.Shipped> onShipped = s -> { };

        private final java.util.Set<String> reached = ConcurrentHashMap.newKeySet();

        /** One of the four steps the verdict waits for (each counted once). */
        private void reached(String step) {
            if (reached.add(step)) {
                recoveredEverywhere.countDown();
            }
        }

        void accept(SiteEvent e) {
            if (e instanceof SiteEvent.Shipped s) {
                if (shippedOnce.add(s.site())) {
                    progress(s.site() + "'s protector: first line shipped to the site protecting it (" + s.series() + ", iteration "
                            + s.iteration() + ", " + s.bytes() + " bytes)");
                }
                onShipped.accept(s);
            } else if (e instanceof SiteEvent.Suspected s) {
                progress(s.site() + "'s protector: DETECTED " + s.target() + " silent for " + TIMEOUT.toMillis() + " ms; asks "
                        + s.third() + " to check it");
            } else if (e instanceof SiteEvent.LinkCut c) {
                progress(c.site() + "'s protector: " + c.third() + " still reaches " + c.target() + ": only the link is cut, nothing declared");
            } else if (e instanceof SiteEvent.Declared d) {
                progress(d.site() + "'s protector: " + d.target() + " DECLARED failed, VERIFIED by " + (d.verifiedBy().isEmpty()
                        ? "nobody (a ring of two)" : d.verifiedBy() + " (it cannot reach " + d.target() + " either)"));
                if (d.target().equals(LOST) && d.verifiedBy().equals("site-2")) {
                    reached("declared");
                }
            } else if (e instanceof SiteEvent.Recovered r) {
                progress(String.format(Locale.ROOT, "%s's protector: %s's site checkpoint PLACED on %s (%s): %s, %d lines,"
                        + " newest iteration %d, %d ms after the declaration", r.site(), r.move().failed(), r.move().target(),
                        r.move().kind(), r.series(), r.lines(), r.newestIteration(), r.took().toMillis()));
                if (r.move().target().equals(SPARE) && r.lines() > 0) {
                    reached("placed");
                }
            } else if (e instanceof SiteEvent.TableChanged t) {
                progress(t.site() + "'s protector: TABLE v" + t.table().version() + " adopted: " + describe(t.table()));
                if ((t.site().equals("site-2") || t.site().equals(SPARE)) && t.table().siteOf(LOST_RANK).equals(SPARE)) {
                    reached("table@" + t.site());
                }
            } else if (e instanceof SiteEvent.Stopped s) {
                progress(s.site() + "'s protector stopped: " + s.reason());
            }
        }
    }

    private static String describe(Topology t) {
        List<String> rows = new ArrayList<>();
        for (Site s : t.sites()) {
            rows.add(s.name() + (s.spare() ? " (spare)" : " ranks " + s.ranks()) + (s.spare() ? "" : " protected by " + t.protectorOf(s.name()).name()));
        }
        return String.join("; ", rows);
    }

    private int failed(String why, Path temp) {
        err.println("demo: " + why + "; the checkpoints and the full output are kept in " + temp);
        return 1;
    }

    private void progress(String text) {
        synchronized (this) {
            err.printf(Locale.ROOT, "demo [sites] %7.1fs  %s%n", Duration.between(start, Instant.now()).toMillis() / 1000.0, text);
        }
    }
}
