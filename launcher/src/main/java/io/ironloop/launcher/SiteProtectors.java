package io.ironloop.launcher;

import static io.ironloop.launcher.Timeline.fields;

import io.ironloop.Folders;
import io.ironloop.group.launch.FreePorts;
import io.ironloop.group.launch.JobSecret;
import io.ironloop.group.launch.LaunchEnvironment;
import io.ironloop.sites.SiteEvent;
import io.ironloop.sites.SiteProtector;
import io.ironloop.sites.SiteProtectorMain;
import io.ironloop.sites.Topology;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The protectors of a job spread over fake sites ({@code ironloop run --fake-sites S [--spare-sites K]},
 * docs/sites.md), started before the first attempt and kept for the whole run, like the control socket: one
 * {@link SiteProtectorMain} JVM per site of one node and per spare site (its cluster protector), and one per node of a
 * site that {@code --fake-hosts} gives several nodes ({@code --node N}: the node protector, and on the controller node
 * the site's cluster protector too, which fails over to the next node when that process is lost). The launcher
 * <ul>
 *   <li>builds the H-RADIC table from where the ranks run (rank r on {@code site-⌊r·S/M⌋}, spare sites
 *       {@code spare-0 …}) with every protector's loopback address, and starts the protectors on it; every site's
 *       store is the job's {@code FT_FOLDER} (one machine), each protector shipping only its own ranks' series; the
 *       site checkpoints they hold go to a temporary folder deleted at the end;</li>
 *   <li>follows what they print ({@link SiteEvent#line()}) into the timeline and its log, as
 *       {@link SupervisorInput.SiteReport}s handled on the supervisor thread;</li>
 *   <li>before relaunching a job that lost a site (a protector's process ended, or a site was declared failed), waits
 *       until the protector of that site has placed its site checkpoint where the table moves its ranks (Algorithm 3),
 *       then asks the live protectors for the table (Algorithm 4: learnt on demand, from whichever answers, so a
 *       cluster protector that moved to another node is found through its site's node protectors) and starts the lost site's ranks
 *       there: {@code IRONLOOP_SITE} and, with fake hosts, {@code IRONLOOP_HOST} of the target site.</li>
 * </ul>
 * Protector JVMs carry {@code -Dironloop.job=ID} on their command line, so the job's {@link RankReaper} kills them if
 * the launcher dies; {@link #close()} kills them otherwise. Thread-safe: the output pumps update the state, the
 * supervisor thread reads it.
 */
final class SiteProtectors implements AutoCloseable {
    /** Prefix of a spare site's name. */
    static final String SPARE_PREFIX = "spare-";
    /** Timeline: a protector process started. */
    static final String STARTED = TimelineEvent.SITE_PROTECTOR_STARTED;
    /** Timeline: a protector's process ended without the launcher stopping it ({@code site}, {@code node}, {@code status}). */
    static final String EXITED = "site-protector-exited";
    /** Timeline: the lost site's ranks start where the table moved them ({@code ranks}, {@code site}). */
    static final String RANKS_MOVED = "site-ranks-moved";
    /** Timeline: at the end of the job, the table one protector answered. */
    static final String TABLE_ASKED = TimelineEvent.SITE_TABLE_ASKED;

    private final LaunchSpec spec;
    private final SiteProtection protection;
    private final LauncherLog log;
    private final Consumer<SupervisorInput> sink;
    private final RankHosts hosts;
    private final JobSecret secret;
    private final Path temp;
    private final Topology initial;
    private final List<Member> members = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    /** Sites whose protector's process ended, or that a protector declared failed; not yet placed elsewhere. */
    private final Set<String> lost = ConcurrentHashMap.newKeySet();
    /** Sites whose ranks a protector placed elsewhere: failed site → target site. */
    private final Map<String, String> placed = new ConcurrentHashMap<>();
    private volatile Topology table;
    private volatile boolean closing;

    private SiteProtectors(LaunchSpec spec, LauncherLog log, Consumer<SupervisorInput> sink, JobSecret secret, Path temp,
            Topology table) {
        this.spec = spec;
        this.protection = spec.siteProtection().orElseThrow();
        this.log = log;
        this.sink = sink;
        this.hosts = RankHosts.of(spec);
        this.secret = secret;
        this.temp = temp;
        this.initial = table;
        this.table = table;
    }

    /**
     * Starts a protector per site and spare site of the spec's ranks.
     *
     * @param jobId the job, on every protector's command line
     * @param secret the job secret the protectors prove to each other
     * @param classpath the class path of the protector JVMs (the launcher's, which holds the sites module)
     * @param sink where the protectors' reports go (the supervisor's queue)
     * @param reaper kills them if the launcher dies
     * @throws LaunchException if the ports, the folder or a process cannot be had
     */
    static SiteProtectors start(LaunchSpec spec, String jobId, JobSecret secret, String classpath, Consumer<SupervisorInput> sink,
            LauncherLog log, RankReaper reaper) {
        SiteProtection protection = spec.siteProtection().orElseThrow();
        RankHosts hosts = RankHosts.of(spec);
        List<Topology.RankPlace> places = new ArrayList<>();
        for (int r = 0; r < spec.worldSize(); r++) {
            String site = hosts.siteOf(r).orElseThrow();
            places.add(new Topology.RankPlace(r, spec.fakeHosts().isPresent() ? hosts.of(r) : "host-" + site, site));
        }
        List<Topology.Site> spares = new ArrayList<>();
        for (int k = 0; k < protection.spareSites(); k++) {
            spares.add(Topology.Site.spare(SPARE_PREFIX + k, List.of("host-" + SPARE_PREFIX + k), ""));
        }
        Topology bare = Topology.of(places, spares);
        Path temp = null;
        SiteProtectors sites = null;
        try {
            List<String> nodes = new ArrayList<>();
            bare.ring().stream().filter(s -> s.nodes().size() > 1).forEach(s -> nodes.addAll(s.nodes())); // one node: no node ring
            int[] ports = FreePorts.allocate(bare.sites().size() + nodes.size());
            Map<String, String> addresses = new LinkedHashMap<>();
            for (int i = 0; i < bare.sites().size(); i++) {
                addresses.put(bare.sites().get(i).name(), "127.0.0.1:" + ports[i]);
            }
            Map<String, String> nodeAddresses = new LinkedHashMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                nodeAddresses.put(nodes.get(i), "127.0.0.1:" + ports[bare.sites().size() + i]);
            }
            Topology table = bare.withProtectors(addresses).withNodeProtectors(nodeAddresses);
            temp = Files.createTempDirectory("ironloop-sites-" + jobId + "-");
            Path tableFile = Files.writeString(temp.resolve("table.txt"), table.encode(), StandardCharsets.UTF_8);
            sites = new SiteProtectors(spec, log, sink, secret, temp, table);
            log.info("site protection: " + table.ring().size() + " sites + " + spares.size() + " spare site" + (spares.size() == 1 ? "" : "s")
                    + ", one protector process each" + (nodes.isEmpty() ? "" : " (one per node on sites of several nodes: " + nodes.size()
                    + " node protectors)") + "; site checkpoints held in " + temp + "; table v" + table.version() + ": " + describe(table));
            for (Topology.Site s : table.sites()) {
                Map<String, String> ofSite = table.nodeProtectors(s.name());
                if (ofSite.isEmpty()) {
                    sites.startOne(s.name(), Optional.empty(), s.protector(), jobId, classpath, tableFile, reaper);
                }
                for (Map.Entry<String, String> n : ofSite.entrySet()) {
                    sites.startOne(s.name(), Optional.of(n.getKey()), n.getValue(), jobId, classpath, tableFile, reaper);
                }
            }
            return sites;
        } catch (IOException e) {
            if (sites != null) {
                sites.close();
            } else if (temp != null) {
                deleteTree(temp);
            }
            throw new LaunchException("cannot start the site protectors: " + e.getMessage(), e);
        }
    }

    /**
     * One protector process: the cluster protector of {@code site} ({@code node} empty), or the protector of one of its
     * nodes ({@code SiteProtectorMain --node N}), listening at {@code address} (the table's).
     */
    private record Member(String site, Optional<String> node, String address, Process process) {
        /** How its output and the launcher's log name it: {@code site-0} or {@code site-0 host-1}. */
        String label() {
            return site + node.map(n -> " " + n).orElse("");
        }
    }

    private void startOne(String site, Optional<String> node, String address, String jobId, String classpath, Path tableFile,
            RankReaper reaper) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(spec.javaExecutable().toString());
        command.addAll(SiteProtectorMain.JVM_OPTIONS);
        command.add("-D" + LaunchEnvironment.JOB_PROPERTY + "=" + jobId);
        command.add("-Dironloop.site=" + site);
        node.ifPresent(n -> command.add("-Dironloop.node=" + n));
        command.addAll(List.of("-cp", classpath, SiteProtectorMain.class.getName(), "--site", site,
                "--table", tableFile.toString(), "--site-folder", spec.folder().orElseThrow().toString(), "--held-folder",
                temp.resolve("held-" + site + node.map(n -> "-" + n).orElse("")).toString(), "--secret-file", secret.file().toString(),
                "--heartbeat-ms", Long.toString(protection.heartbeat().toMillis()), "--timeout-ms", Long.toString(protection.timeout().toMillis()),
                "--encrypt", Boolean.toString(protection.encrypt())));
        node.ifPresent(n -> command.addAll(List.of("--node", n)));
        Process p = new ProcessBuilder(command).directory(spec.workingDirectory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        Member m = new Member(site, node, address, p);
        members.add(m);
        reaper.watch(p.pid());
        pumps.add(pump(p.getInputStream(), m.label(), line -> event(site, line)));
        pumps.add(pump(p.getErrorStream(), m.label(), line -> spec.err().println("[" + m.label() + " protector] " + OutputPump.printable(line))));
        sink.accept(new SupervisorInput.SiteReport(site, STARTED, fields("site", site, "node", node.orElse(null), "pid", p.pid(),
                "address", address), Instant.now()));
        p.onExit().thenAccept(done -> {
            if (closing) {
                return;
            }
            boolean siteAlive = members.stream().anyMatch(o -> o.site().equals(site) && o.process().isAlive());
            if (!siteAlive && ((table.has(site) && !table.site(site).spare()) || placed.containsValue(site))) {
                lost.add(site); // a site running ranks (by the launcher's table, or since a placement moved ranks there) lost its last protector
            }
            sink.accept(new SupervisorInput.SiteReport(site, EXITED, fields("site", site, "node", node.orElse(null), "pid", done.pid(),
                    "status", done.exitValue()), Instant.now()));
        });
    }

    private Thread pump(InputStream in, String site, Consumer<String> each) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    try {
                        each.accept(line);
                    } catch (RuntimeException e) {
                        // keep draining: a protector whose output is not read blocks on its next line and falls silent
                        log.warn("cannot follow a line of the protector of " + site + ": " + line + ": " + e);
                    }
                }
            } catch (IOException e) {
                // the protector ended: its exit is reported
            }
        }, "ironloop-site-" + site + "-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** One line of a protector's standard output: its events update the state here and go to the supervisor. */
    private void event(String site, String line) {
        if (!line.startsWith("event ")) {
            return;
        }
        Map.Entry<String, Map<String, String>> e;
        try {
            e = SiteEvent.parse(line.substring("event ".length()));
        } catch (IllegalArgumentException bad) {
            log.warn("the protector of " + site + " printed an event the launcher cannot read: " + line);
            return;
        }
        Map<String, String> f = e.getValue();
        switch (e.getKey()) {
            case "Declared" -> {
                if (f.containsKey("target")) {
                    lost.add(f.get("target"));
                }
            }
            case "Recovered" -> {
                if (f.containsKey("failed") && f.containsKey("target")) {
                    placed.put(f.get("failed"), f.get("target"));
                    lost.remove(f.get("failed"));
                }
            }
            default -> {
            }
        }
        sink.accept(new SupervisorInput.SiteReport(site, TimelineEvent.ofSite(e.getKey()), new LinkedHashMap<>(f), Instant.now()));
    }

    /**
     * Records a report in the timeline and says what matters on the launcher's log. Supervisor thread.
     *
     * @param attempt the attempt running (or the one that just ended)
     */
    void record(SupervisorInput.SiteReport report, int attempt, Timeline timeline) {
        Map<String, Object> f = report.fields();
        timeline.supervisor(report.time(), attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, report.type(), f);
        switch (report.type()) {
            case "site-declared" -> log.warn("site " + f.get("target") + " declared failed by the protector of " + report.site()
                    + ("-".equals(f.get("verified_by")) ? " (a ring of two: not verified)" : ", verified by " + f.get("verified_by")
                    + " (it cannot reach it either)"));
            case "site-recovered" -> log.info("site " + f.get("failed") + " lost: the protector of " + report.site() + (!"0".equals(f.get("lines"))
                    ? " placed its site checkpoint (" + f.get("lines") + " line(s) of " + f.get("series") + ", newest iteration "
                            + f.get("newest_iteration") + ")"
                    : " held no line of it that the target lacks (nothing placed)") + " on " + f.get("target") + " (" + f.get("kind")
                    + "); table v" + f.get("table_version") + ": ranks [" + f.get("ranks") + "] run on " + f.get("target") + " from now on");
            case "site-stopped" -> log.warn("the protector of " + report.site() + " stopped itself: " + f.get("reason"));
            case "site-node-declared" -> log.warn("node " + f.get("target") + " of site " + report.site() + " declared failed by the protector of"
                    + " node " + f.get("node") + ("-".equals(f.get("verified_by")) ? " (a ring of two nodes: not verified)" : ", verified by node "
                    + f.get("verified_by")));
            case "site-failed-over" -> log.warn("site " + report.site() + " lost its controller node " + f.get("failed") + ": its cluster protector"
                    + " failed over to node " + f.get("node") + ", now at " + f.get("address") + " (table v" + f.get("table_version") + ")");
            case "site-node-stopped" -> log.warn("the protector of node " + f.get("node") + " of site " + report.site() + " stopped itself: "
                    + f.get("reason"));
            case EXITED -> log.warn("the protector of " + report.site() + (f.containsKey("node") ? " node " + f.get("node") : "") + " (pid "
                    + f.get("pid") + ") exited with status " + f.get("status") + (lost.contains(report.site())
                            ? "; its site counts as lost until a protector places its ranks elsewhere" : ""));
            default -> {
            }
        }
    }

    /** Whether a site was lost and its ranks are not yet placed elsewhere: a relaunch waits for that. */
    boolean awaitingPlacement() {
        return !lost.isEmpty();
    }

    /** The sites lost and not placed yet. */
    Set<String> unplaced() {
        return Set.copyOf(lost);
    }

    /** How long a relaunch waits for a lost site's placement: detection, verification (3 timeouts), placement. */
    Duration placementWait() {
        return protection.timeout().multipliedBy(4).plusSeconds(30);
    }

    /**
     * Before an attempt: learns the table from the live protectors (Algorithm 4, on demand) and records where the ranks
     * of the sites lost since the last table start now. Supervisor thread.
     */
    void beforeAttempt(int attempt, Timeline timeline) {
        Topology known = table;
        Topology fetched = newestTable().orElse(null);
        if (fetched == null || fetched.version() <= known.version()) {
            return;
        }
        table = fetched;
        for (Topology.Site s : fetched.ring()) {
            List<Integer> moved = s.ranks().stream().filter(r -> !known.siteOf(r).equals(s.name())).toList();
            if (!moved.isEmpty()) {
                log.info("relaunching ranks " + moved + " on site " + s.name() + " (table v" + fetched.version() + ", asked a protector;"
                        + " they resume from the site checkpoint placed there)");
                timeline.supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, RANKS_MOVED, fields("ranks", moved, "site",
                        s.name(), "host", s.controller(), "table_version", fetched.version()));
            }
        }
    }

    /**
     * Asks every live protector process for its table (cluster and node protectors both answer {@code GET_TABLE}) and
     * returns the newest: a protector that moved — a cluster protector failed over to another node, at an address the
     * launcher's table does not know — is reached through any process that still runs, without the launcher following
     * each change as it happens.
     */
    Optional<Topology> newestTable() {
        return askAll().values().stream().max(Comparator.comparingLong(Topology::version));
    }

    /**
     * At the end of the job: asks every live protector for its table, records each answer in the timeline
     * ({@link #TABLE_ASKED}: the fields of a {@link SiteEvent.TableChanged} at that protector, and its {@code node}) and
     * says on the log where the ranks are by the newest. Supervisor thread.
     */
    void askTables(int attempt, Timeline timeline) {
        Map<Member, Topology> answers = askAll();
        answers.forEach((m, t) -> {
            Map<String, Object> f = new LinkedHashMap<>(new SiteEvent.TableChanged(m.site(), t).fields()); // site, table_version, ranks
            m.node().ifPresent(n -> f.put("node", n));
            timeline.supervisor(attempt, TimelineEvent.NO_RANK, TimelineEvent.NO_PID, TABLE_ASKED, f);
        });
        answers.values().stream().max(Comparator.comparingLong(Topology::version)).ifPresent(newest -> {
            if (newest.version() > table.version()) {
                table = newest;
            }
            log.info("site table at the end of the job: v" + newest.version() + " (asked " + answers.size() + " protector"
                    + (answers.size() == 1 ? "" : "s") + "): " + describe(newest));
        });
    }

    private Map<Member, Topology> askAll() {
        Map<Member, Topology> answers = new LinkedHashMap<>();
        for (Member m : members) {
            if (!m.process().isAlive()) {
                continue;
            }
            try {
                answers.put(m, SiteProtector.fetchTable(SiteProtector.address(m.address()), secret, protection.encrypt(), protection.timeout()));
            } catch (IOException e) {
                log.warn("could not ask the protector of " + m.label() + " (" + m.address() + ") for the site table: " + e.getMessage());
            }
        }
        return answers;
    }

    /** The site rank {@code rank} runs on now. */
    String siteOf(int rank) {
        return table.siteOf(rank);
    }

    /** The host rank {@code rank} runs on now: {@code fallback} unless it moved to another site with fake hosts. */
    String hostOf(int rank, String fallback) {
        String site = table.siteOf(rank);
        if (spec.fakeHosts().isEmpty() || site.equals(initial.siteOf(rank))) {
            return fallback;
        }
        return table.site(site).controller();
    }

    /**
     * What every rank is told of the protectors: their addresses (cluster and node protectors) and the table's version,
     * from which its {@link io.ironloop.sites.SiteDirectory} tells its site's cluster protector about each line it commits.
     */
    Map<String, String> environment() {
        return io.ironloop.sites.SiteDirectory.environment(table);
    }

    /** The table as the launcher knows it now. */
    Topology table() {
        return table;
    }

    /** Kills every protector and deletes the site checkpoints they held. */
    @Override
    public void close() {
        closing = true;
        members.forEach(m -> {
            m.process().descendants().forEach(ProcessHandle::destroyForcibly);
            m.process().destroyForcibly();
        });
        for (Member m : members) {
            try {
                m.process().waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Thread t : pumps) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        deleteTree(temp);
    }

    static String describe(Topology t) {
        List<String> rows = new ArrayList<>();
        for (Topology.Site s : t.sites()) {
            rows.add(s.name() + (s.spare() ? " (spare)" : " ranks " + s.ranks() + " protected by " + t.protectorOf(s.name()).name()));
        }
        return String.join("; ", rows);
    }

    private static void deleteTree(Path root) {
        if (root == null) {
            return;
        }
        try {
            Folders.deleteTree(root);
        } catch (IOException e) {
            // a protector may still be writing as it dies: what is left is in java.io.tmpdir
        }
    }
}
