package io.ironloop.sites;

import io.ironloop.group.launch.JobSecret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A cluster protector as a process of its own, on a site's controller node:
 * {@code java -cp … io.ironloop.sites.SiteProtectorMain --site X --table FILE --site-folder DIR --held-folder DIR
 * --secret-file FILE [--heartbeat-ms 200] [--timeout-ms 2000] [--encrypt false|true]}; {@code --encrypt} is
 * {@code SITE_ENCRYPT}, the same at every protector of the job (and for whoever asks them for the table). The table file is {@link Topology#encode()}'s text,
 * with every protector's address. Every {@link SiteEvent} is printed on standard output as {@code event }
 * {@link SiteEvent#line()} (for example {@code event Declared site=X target=Y verified_by=Z}), after one line
 * {@code listening HOST:PORT};
 * logs go to standard error. Runs until killed; exits 3 when it stopped itself (cut off from both neighbours), 2 on a
 * usage error.
 *
 * <p>With {@code --node N} it is the protector of node {@code N} of the site instead (RADIC's node level,
 * {@link NodeProtector}): it listens on {@code N}'s node protector address in the table, and on the controller node it
 * runs the site's cluster protector too; when the controller node is lost, the node that takes over starts the cluster
 * protector in its own process (event {@code FailedOver}). {@code listening} then names the node protector's address.
 * It exits 3 when the node protector stopped itself (cut off from both ring neighbours, or declared failed by them).
 */
public final class SiteProtectorMain {
    /**
     * The JVM options a protector process runs with (the launcher's and {@code bench sites}'): a small heap and the serial
     * collector (a protector holds little: it streams lines through 1 MiB buffers), the client compiler only (it starts
     * fast and takes little CPU from the ranks beside it), small thread stacks.
     */
    public static final java.util.List<String> JVM_OPTIONS = java.util.List.of("-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Xss512k");

    private SiteProtectorMain() {
    }

    /**
     * Entry point.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        Map<String, String> o = new HashMap<>(Map.of("--heartbeat-ms", "200", "--timeout-ms", "2000", "--encrypt", "false"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        for (String k : new String[] {"--site", "--table", "--site-folder", "--held-folder", "--secret-file"}) {
            if (!o.containsKey(k) || args.length % 2 != 0) {
                System.err.println("usage: SiteProtectorMain --site X --table FILE --site-folder DIR --held-folder DIR --secret-file FILE"
                        + " [--heartbeat-ms 200] [--timeout-ms 2000] [--node N] [--encrypt false|true]; missing " + k);
                System.exit(2);
            }
        }
        if (!o.get("--encrypt").equals("true") && !o.get("--encrypt").equals("false")) {
            System.err.println("SiteProtectorMain: --encrypt is true or false, not '" + o.get("--encrypt") + "'");
            System.exit(2);
        }
        Topology table = Topology.parse(Files.readString(Path.of(o.get("--table")), StandardCharsets.UTF_8));
        SiteProtector.Config config = new SiteProtector.Config(o.get("--site"), table, Path.of(o.get("--site-folder")),
                Path.of(o.get("--held-folder")), JobSecret.load(Path.of(o.get("--secret-file"))),
                Duration.ofMillis(Long.parseLong(o.get("--heartbeat-ms"))), Duration.ofMillis(Long.parseLong(o.get("--timeout-ms"))),
                Boolean.parseBoolean(o.get("--encrypt")));
        if (o.containsKey("--node")) {
            runNode(config, o.get("--node"));
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try (SiteProtector p = SiteProtector.start(config, e -> {
            print(e);
            if (e instanceof SiteEvent.Stopped) {
                stopped.countDown();
            }
        })) {
            System.out.println("listening " + p.address());
            System.out.flush();
            stopped.await();
        }
        System.exit(3);
    }

    private static void runNode(SiteProtector.Config config, String node) throws IOException, InterruptedException {
        String at = config.table().nodeProtectors(config.site()).get(node);
        if (at == null) {
            System.err.println("node " + node + " has no node protector of site " + config.site() + " in the table (a 'node' line)");
            System.exit(2);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        java.util.function.Consumer<SiteEvent> print = e -> {
            print(e);
            if (e instanceof SiteEvent.NodeStopped) {
                stopped.countDown();
            }
        };
        SiteProtector cluster = config.table().site(config.site()).controller().equals(node) ? SiteProtector.start(config, print) : null;
        try (NodeProtector p = NodeProtector.start(config, node, SiteProtector.listen(SiteProtector.address(at)),
                java.util.Optional.ofNullable(cluster), print)) {
            System.out.println("listening " + p.address());
            System.out.flush();
            stopped.await();
        }
        System.exit(3);
    }

    private static void print(SiteEvent e) {
        synchronized (System.out) {
            System.out.println("event " + e.line());
            System.out.flush();
        }
    }
}
