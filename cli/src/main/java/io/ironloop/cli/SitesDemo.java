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
import io.ironloop.launcher.SiteProtection;
import io.ironloop.launcher.TimelineEvent;
import io.ironloop.sites.SiteEvent;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ironloop demo sites}: the heat block example on three sites plus one spare site, one whole site lost mid-run,
 * through the path {@code ironloop run --fake-sites} takes: the launcher runs the three rank JVMs with
 * {@code --fake-sites 3 --fake-hosts 3 --spare-sites 1} (rank r on {@code site-r}, its partner copies on another site)
 * and starts the four cluster protector JVMs ({@code site-0..2}, {@code spare-0}; the sites share the job's store on
 * this machine). Once the protector of {@code site-1} has shipped a line of rank 1 past iteration 20, the demo loses
 * {@code site-1}: SIGKILL to rank 1's JVM and to its protector's JVM, and rank 1's lines deleted from the store. The
 * survivors recover rank 1 online from the partner copies and finish; the protectors detect the loss, have it verified
 * by {@code site-2}, place {@code site-1}'s site checkpoint on the spare site and announce table v2, which the launcher
 * asks every protector for at the end. The demo follows it all in the launcher's timeline. The reference is the heat
 * example computed failure-free in this JVM ({@link BlockReference}).
 */
final class SitesDemo {
    static final String HELP = String.format(Locale.ROOT, "%nAPP sites: the heat block example on 3 sites + 1 spare site, a whole site lost"
            + " mid-run (H-RADIC, docs/sites.md).%n"
            + "  the job: ironloop run -n 3 --fake-sites 3 --fake-hosts 3 --spare-sites 1 -- %s SIZE (rank r on site-r; partner"
            + " copies on another site)%n"
            + "  protectors: one process per site (site-0..2, spare-0), started by the launcher as under ironloop run --fake-sites%n"
            + "  the fault: once site-1's protector has shipped a line of rank 1 past iteration 20, site-1 is lost: SIGKILL to rank"
            + " 1's JVM and to its protector's JVM, its lines deleted from the store%n"
            + "  shown: detection by site-0, verification by site-2, site-1's checkpoint placed on the spare site, table v2 asked"
            + " back from every protector; the ranks recover rank 1 online%n"
            + "  reference: the heat example computed failure-free in the demo's JVM. Options: --size, --restarts only.%n",
            HeatBlocksRank.class.getName());

    private static final List<String> RANK_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:-UsePerfData");
    private static final Pattern RESULT = Pattern.compile("result sha256=([0-9a-f]{64})");
    private static final int SITES = 3;
    private static final String LOST = "site-1";
    private static final int LOST_RANK = 1;
    private static final String LOST_SERIES = "rank-00001";
    private static final String SPARE = "spare-0";
    /** The site is lost once its protector has shipped a line this far into the run, so that the loss is mid-run. */
    private static final long KILL_AFTER = 20;
    private static final Duration HEARTBEAT = Duration.ofMillis(200);
    /** SITE_TIMEOUT's default: shorter ones declared live sites failed at load 30. */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

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
        err.println("demo: ironloop run -n 3 --fake-sites 3 --fake-hosts 3 --spare-sites 1 --restarts " + restarts + " -- "
                + HeatBlocksRank.class.getName() + " " + String.join(" ", args) + "; one protector process per site; store " + store
                + " (shared by the sites on this machine); full output in " + temp.resolve("demo.log"));
        JobSecret secret = JobSecret.create(temp, "demo-sites");
        Events events = new Events(store);
        boolean ok = false;
        try (PrintStream log = new PrintStream(new FileOutputStream(temp.resolve("demo.log").toFile()), true, StandardCharsets.UTF_8)) {
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
            Set<String> missing = events.missing();
            if (!missing.isEmpty()) {
                return failed("the protectors did not " + String.join(", ", missing) + " before the launcher stopped them", temp);
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

    /**
     * Site-1 is lost: its rank JVM and its protector's JVM get SIGKILL, at once, and its storage goes with them: rank 1's
     * lines in the store the sites share on this machine, so that what the spare site gets is the site checkpoint held
     * by {@code site-0}.
     */
    private void lose(Path store, Events events, long iteration) {
        progress(LOST + "'s protector shipped rank " + LOST_RANK + "'s line of iteration " + iteration
                + " to site-0 (its site checkpoint is held there)");
        long rank = events.rankPid.get();
        long protector = events.protectorPid.get();
        Optional<ProcessHandle> rankProcess = ProcessHandle.of(rank);
        boolean rankKilled = rank > 0 && rankProcess.map(ProcessHandle::destroyForcibly).orElse(false);
        boolean protectorKilled = protector > 0 && ProcessHandle.of(protector).map(ProcessHandle::destroyForcibly).orElse(false);
        try {
            if (rankProcess.isPresent()) {
                rankProcess.get().onExit().get(10, TimeUnit.SECONDS); // it writes no more lines
            }
            Folders.deleteTree(store.resolve(LOST_SERIES));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | IOException | UncheckedIOException e) {
            progress("could not delete " + LOST + "'s storage (" + e + "); its lines stay in the shared store");
        }
        progress("LOST " + LOST + ": SIGKILL to rank " + LOST_RANK + " (pid " + rank + (rankKilled ? "" : ", already gone")
                + ") and to its protector (pid " + protector + (protectorKilled ? "" : ", already gone") + "); its storage deleted ("
                + store.resolve(LOST_SERIES) + ")");
    }

    private Optional<LaunchResult> launch(List<String> args, Path store, JobSecret secret, PrintStream log, Events events) {
        Path cwd = Path.of("").toAbsolutePath();
        LaunchSpec.Builder b = LaunchSpec.builder().ranks(SITES).fakeHosts(SITES).fakeSites(SITES).restarts(restarts)
                .protectSites(new SiteProtection(1, HEARTBEAT, TIMEOUT, false)).folder(store)
                .workingDirectory(cwd).secretFile(secret.file())
                .application(new Application(HeatBlocksRank.class.getName(), Optional.empty())).arguments(args)
                .environment(EngineKeys.FT_FOLDER.environmentVariable(), store.toString())
                .environment("IRONLOOP_SNAPSHOT_EVERY", "5").environment("IRONLOOP_DISK_EVERY", "1")
                .out(log).err(log)
                .eventListener(e -> {
                    if (e.type().startsWith("site-")) {
                        events.site(e);
                        return;
                    }
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

    /** What the protectors report in the launcher's timeline, kept for the verdict, and shown. */
    private final class Events {
        final Path store;
        final AtomicLong rankPid = new AtomicLong(-1);
        final AtomicLong protectorPid = new AtomicLong(-1);
        final AtomicBoolean killed = new AtomicBoolean();
        final AtomicReference<String> sha = new AtomicReference<>();
        private final Set<String> shippedOnce = ConcurrentHashMap.newKeySet();
        /** The steps the verdict needs, each reached once. */
        private final Set<String> reached = ConcurrentHashMap.newKeySet();

        Events(Path store) {
            this.store = store;
        }

        /** What the protectors did not do, of what the verdict needs; empty when they did it all. */
        Set<String> missing() {
            Set<String> missing = new java.util.LinkedHashSet<>(List.of("declare " + LOST + " failed verified by site-2", "place "
                    + LOST + " on " + SPARE, "answer table v2 at site-2", "answer table v2 at " + SPARE));
            missing.removeAll(reached);
            return missing;
        }

        /** A site event of the launcher's timeline (supervisor thread). */
        void site(TimelineEvent e) {
            Map<String, Object> f = e.fields();
            String site = String.valueOf(f.get("site"));
            String type = e.type();
            if (type.equals(TimelineEvent.SITE_PROTECTOR_STARTED)) {
                if (site.equals(LOST)) {
                    protectorPid.set(e.longField("pid").orElse(-1));
                }
            } else if (type.equals(TimelineEvent.ofSite(SiteEvent.Shipped.class))) {
                if (shippedOnce.add(site)) {
                    progress(site + "'s protector: first line shipped to the site protecting it (" + f.get("series") + ", iteration "
                            + f.get("iteration") + ", " + f.get("bytes") + " bytes)");
                }
                long iteration = Long.parseLong(String.valueOf(f.get("iteration")));
                if (site.equals(LOST) && LOST_SERIES.equals(f.get("series")) && iteration >= KILL_AFTER && killed.compareAndSet(false, true)) {
                    lose(store, this, iteration);
                }
            } else if (type.equals(TimelineEvent.ofSite(SiteEvent.Suspected.class))) {
                progress(site + "'s protector: DETECTED " + f.get("target") + " silent for " + TIMEOUT.toMillis() + " ms; asks "
                        + f.get("third") + " to check it");
            } else if (type.equals(TimelineEvent.ofSite(SiteEvent.LinkCut.class))) {
                progress(site + "'s protector: " + f.get("third") + " still reaches " + f.get("target") + ": only the link is cut,"
                        + " nothing declared");
            } else if (type.equals(TimelineEvent.ofSite(SiteEvent.Declared.class))) {
                boolean verified = !"-".equals(f.get("verified_by"));
                progress(site + "'s protector: " + f.get("target") + " DECLARED failed, VERIFIED by " + (verified ? f.get("verified_by")
                        + " (it cannot reach " + f.get("target") + " either)" : "nobody (a ring of two)"));
                if (LOST.equals(f.get("target")) && "site-2".equals(f.get("verified_by"))) {
                    reached.add("declare " + LOST + " failed verified by site-2");
                }
            } else if (type.equals(TimelineEvent.ofSite(SiteEvent.Recovered.class))) {
                progress(site + "'s protector: " + f.get("failed") + "'s site checkpoint PLACED on " + f.get("target") + " ("
                        + f.get("kind") + "): " + f.get("series") + ", " + f.get("lines") + " lines, newest iteration "
                        + f.get("newest_iteration") + ", " + f.get("took_ms") + " ms after the declaration");
                if (SPARE.equals(f.get("target")) && !"0".equals(f.get("lines"))) {
                    reached.add("place " + LOST + " on " + SPARE);
                }
            } else if (type.equals(TimelineEvent.ofSite(SiteEvent.TableChanged.class))) {
                progress(site + "'s protector: TABLE v" + f.get("table_version") + " adopted: ranks " + f.get("ranks"));
            } else if (type.equals(TimelineEvent.SITE_TABLE_ASKED)) {
                progress("asked " + site + "'s protector for the table: v" + f.get("table_version") + ", ranks " + f.get("ranks"));
                if ((site.equals("site-2") || site.equals(SPARE)) && "2".equals(f.get("table_version"))
                        && String.valueOf(f.get("ranks")).contains(LOST_RANK + "@" + SPARE)) {
                    reached.add("answer table v2 at " + site);
                }
            } else if (type.equals(TimelineEvent.ofSite(SiteEvent.Stopped.class))) {
                progress(site + "'s protector stopped: " + f.get("reason"));
            }
        }
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
