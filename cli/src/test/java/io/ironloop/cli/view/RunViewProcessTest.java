package io.ironloop.cli.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ironloop.cli.Main;
import io.ironloop.launcher.TimelineEvent;
import java.awt.image.BufferedImage;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * One real supervised run of 2 rank JVMs ({@link ViewApp}), rank 1 killed with SIGKILL at iteration 4 and the job
 * relaunched, with {@code --dashboard 0}: what it leaves in its folder, the SVG drawn from it, and its live
 * dashboard polled over HTTP while it runs.
 */
class RunViewProcessTest {
    @TempDir
    static Path dir;

    static Path folder;
    static int status;
    static String err;
    /** /state.json as the live dashboard served it while the job ran. */
    static final List<String> liveStates = new ArrayList<>();
    /** The launcher's /metrics as scraped while the job ran. */
    static final List<String> scrapes = new ArrayList<>();

    @BeforeAll
    static void run() throws Exception {
        folder = dir.resolve("checkpoints");
        Path params = dir.resolve("params.json");
        Files.writeString(params, "{\"FT_FOLDER\": \"" + folder + "\"}");
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
        AtomicInteger result = new AtomicInteger(-1);
        Thread launcher = new Thread(() -> result.set(Main.execute(new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), errStream, "run", "-n", "2", "--restarts", "1", "--backoff", "100ms", "--fail", "1@4",
                "--params", params.toString(), "--dashboard", "0", "--metrics-port", "0", "--jvm-opt=-Xmx64m", "--jvm-opt=-XX:TieredStopAtLevel=1",
                "--", ViewApp.class.getName(), "6", "150")));
        launcher.start();
        HttpClient http = HttpClient.newHttpClient();
        AtomicReference<URI> dashboard = new AtomicReference<>();
        AtomicReference<URI> metrics = new AtomicReference<>();
        Pattern address = Pattern.compile("dashboard at (http://\\S+)");
        Pattern metricsAddress = Pattern.compile("launcher metrics at http://[^:]+:(\\d+)(/metrics)");
        while (launcher.isAlive()) {
            Matcher m = address.matcher(errBytes.toString(StandardCharsets.UTF_8));
            if (dashboard.get() == null && m.find()) {
                dashboard.set(URI.create(m.group(1)));
            }
            Matcher mm = metricsAddress.matcher(errBytes.toString(StandardCharsets.UTF_8));
            if (metrics.get() == null && mm.find()) {
                metrics.set(URI.create("http://127.0.0.1:" + mm.group(1) + mm.group(2)));
            }
            if (metrics.get() != null) {
                try {
                    scrapes.add(http.send(HttpRequest.newBuilder(metrics.get()).timeout(Duration.ofSeconds(5)).build(),
                            HttpResponse.BodyHandlers.ofString()).body());
                } catch (java.io.IOException e) {
                    // the run ended between the check and the request: the endpoint is closed
                }
            }
            if (dashboard.get() != null) {
                try {
                    liveStates.add(http.send(HttpRequest.newBuilder(dashboard.get().resolve("state.json"))
                            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body());
                } catch (java.io.IOException e) {
                    // the run ended between the check and the request: the server is closed
                }
            }
            launcher.join(200);
        }
        status = result.get();
        err = errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void run_leavesItsTimelineInTheFolder() {
        assertThat(status).as(err).isZero();
        List<TimelineEvent> events = TimelineFile.read(folder);
        assertThat(events.get(0).type()).isEqualTo(TimelineEvent.JOB_STARTED);
        assertThat(events.get(events.size() - 1).type()).isEqualTo(TimelineEvent.JOB_FINISHED);
        assertThat(events).anySatisfy(e -> {
            assertThat(e.type()).isEqualTo(TimelineEvent.FAULT_INJECTED);
            assertThat(e.rank()).isEqualTo(1);
        });
        assertThat(events).anySatisfy(e -> assertThat(e.type()).isEqualTo("restored"));
        assertThat(events.stream().filter(e -> e.type().equals("saved")).count()).as("3 saves per rank and attempt").isGreaterThanOrEqualTo(4);
    }

    @Test
    void finishedRunsState_levelFiguresFromTheSavesCost() throws Exception {
        List<TimelineEvent> events = TimelineFile.read(folder);
        List<TimelineEvent> saves = events.stream().filter(e -> e.type().equals("saved")).toList();
        com.fasterxml.jackson.databind.JsonNode n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(RunState.of(events).json());
        com.fasterxml.jackson.databind.JsonNode global = n.get("levels").get(0);
        assertThat(global.get("level").asText()).isEqualTo("global");
        assertThat(global.get("saves").asLong()).isEqualTo(saves.size());
        assertThat(global.get("bytes").asLong()).isEqualTo(saves.size() * ViewApp.SAVE_BYTES);
        assertThat(global.get("blocking_s").asDouble()).as("each save blocked its rank %d ms", ViewApp.SAVE_MS)
                .isGreaterThanOrEqualTo(saves.size() * ViewApp.SAVE_MS / 1000.0);
        double perRank = global.get("blocking_s").asDouble() / 2 / n.get("elapsed_s").asDouble();
        assertThat(global.get("overhead_fraction").asDouble()).isEqualTo(perRank, org.assertj.core.data.Offset.offset(1e-6))
                .isBetween(0.0, 0.5);
    }

    @Test
    void liveDashboard_servedTheRunningJob() {
        assertThat(err).contains("ironloop: dashboard at http://127.0.0.1:");
        assertThat(liveStates).as("polled while the job ran").isNotEmpty()
                .anySatisfy(s -> assertThat(s).contains("\"status\":\"running\"", "\"job\":\"ironloop-"));
    }

    @Test
    void launcherMetrics_scrapedWhileTheJobRan() {
        assertThat(scrapes).as("scraped while the job ran").isNotEmpty()
                .anySatisfy(s -> assertThat(s).containsPattern("ironloop_launcher_ranks_alive\\{job=\"ironloop-[0-9a-f]+\"} 2.0"))
                .anySatisfy(s -> assertThat(s).contains("ironloop_launcher_relaunches_total{job=\"")
                        .containsPattern("ironloop_launcher_attempts_total\\{job=\"[^\"]+\"} 2.0"))
                .anySatisfy(s -> assertThat(s).containsPattern("ironloop_launcher_checkpoint_bytes_total\\{job=\"[^\"]+\",level=\"global\"} [1-9]")
                        .containsPattern("ironloop_launcher_checkpoint_overhead\\{job=\"[^\"]+\",level=\"global\"} (0\\.0*[1-9]|[1-9][0-9.]*E-)"));
    }

    @Test
    void timelineSvg_drawsTheFailureItsDetectionAndTheRecoveryInOrder() throws Exception {
        Path svg = dir.resolve("run.svg");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream errOut = new ByteArrayOutputStream();
        assertThat(Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(errOut, true, StandardCharsets.UTF_8),
                "timeline", folder.toString(), "--svg", svg.toString())).as(errOut.toString(StandardCharsets.UTF_8)).isZero();
        String text = Files.readString(svg);
        assertThat(text).as("self-contained: no scripts, images or links").doesNotContain("<script", "<image", "href=", "url(");
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        List<Element> failures = marks(doc, "failure");
        assertThat(failures).as("the injected SIGKILL and rank 1's exit").isNotEmpty()
                .allSatisfy(e -> assertThat(e.getAttribute("data-rank")).isEqualTo("1"));
        assertThat(failures.get(0).getTextContent()).contains("fault injected: SIGKILL");
        List<Element> detections = marks(doc, "detection");
        assertThat(detections).as("the supervisor detected rank 1's failure").isNotEmpty();
        assertThat(detections.get(0).getAttribute("data-rank")).isEqualTo("1");
        List<Element> recoveries = marks(doc, "recovery");
        assertThat(recoveries).as("both ranks restored in attempt 1").hasSize(2)
                .allSatisfy(e -> assertThat(e.getAttribute("data-attempt")).isEqualTo("1"));
        double failed = t(failures.get(0));
        double detected = t(detections.get(0));
        assertThat(detected).isGreaterThanOrEqualTo(failed);
        assertThat(recoveries).allSatisfy(e -> assertThat(t(e)).isGreaterThan(detected));
        assertThat(marks(doc, "restart")).as("the pause before attempt 1").hasSize(1);
        assertThat(marks(doc, "checkpoint")).hasSizeGreaterThanOrEqualTo(4);
        assertThat(marks(doc, "iteration")).isNotEmpty();
    }

    /**
     * {@code ironloop dashboard DIR} in its own JVM, looked at by a real headless Chromium: the screenshot renders (its
     * size, many colours, the failure's red) and the page's DOM, after its script ran, lists the injected failure.
     */
    @Test
    void dashboardCommand_inHeadlessChromium_showsTheInjectedFailure() throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        assumeTrue(chromium.isPresent(), "no chromium on PATH (apt-get install chromium): the browser check is skipped");
        Process server = new ProcessBuilder(javaBin(), "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "dashboard", folder.toString(), "--port", "0")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            URI page = dashboardAddress(server);
            HeadlessChromium browser = new HeadlessChromium(chromium.get(), dir.resolve("chromium-profile"));
            String dom = browser.dumpDom(page);
            assertThat(dom).contains("<tr class=\"failure\"><td>rank 1</td><td>injected SIGKILL</td>")
                    .contains("class=\"failure\" data-rank=\"1\"").contains(">succeeded<").contains("relaunch")
                    .as("the global level's saves, bytes, blocking and overhead")
                    .containsPattern("<tr><td>global</td><td>\\d+</td><td>6</td><td>[0-9.]+ s</td><td>[0-9.]+ KiB</td>"
                            + "<td>0\\.[0-9]+ s</td><td>[0-9.]+ %</td></tr>");
            Path png = dir.resolve("dashboard.png");
            BufferedImage image = browser.screenshot(page, png, 1200, 1100);
            assertThat(image.getWidth()).isEqualTo(1200);
            assertThat(image.getHeight()).isEqualTo(1100);
            Set<Integer> colours = new HashSet<>();
            int red = 0;
            for (int y = 0; y < image.getHeight(); y++) {
                for (int x = 0; x < image.getWidth(); x++) {
                    int rgb = image.getRGB(x, y) & 0xffffff;
                    colours.add(rgb);
                    red += near(rgb, Integer.parseInt(TimelineSvg.Mark.FAILURE.colour().substring(1), 16)) ? 1 : 0;
                }
            }
            assertThat(colours).as("a rendered page, not a blank one").hasSizeGreaterThan(50);
            assertThat(red).as("pixels of the failure marks' red").isGreaterThan(30);
        } finally {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static boolean near(int rgb, int target) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((rgb >> shift) & 0xff) - ((target >> shift) & 0xff)) > 12) {
                return false;
            }
        }
        return true;
    }

    private static URI dashboardAddress(Process server) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
        Pattern address = Pattern.compile("at (http://\\S+/) \\(Ctrl-C");
        StringBuilder seen = new StringBuilder();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            seen.append(line).append('\n');
            Matcher m = address.matcher(line);
            if (m.find()) {
                return URI.create(m.group(1));
            }
        }
        throw new AssertionError("the dashboard printed no address:\n" + seen);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<Element> marks(Document doc, String cssClass) {
        List<Element> found = new ArrayList<>();
        for (String tag : List.of("g", "rect")) {
            NodeList all = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", tag);
            for (int i = 0; i < all.getLength(); i++) {
                Element e = (Element) all.item(i);
                if (e.getAttribute("class").equals(cssClass)) {
                    found.add(e);
                }
            }
        }
        found.sort((a, b) -> Double.compare(t(a), t(b)));
        return found;
    }

    private static double t(Element e) {
        return Double.parseDouble(e.getAttribute("data-t"));
    }
}
