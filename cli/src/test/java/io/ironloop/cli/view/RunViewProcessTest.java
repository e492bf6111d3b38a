package io.ironloop.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.cli.Main;
import io.ironloop.launcher.TimelineEvent;
import java.io.ByteArrayInputStream;
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
import java.util.List;
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
                "--params", params.toString(), "--dashboard", "0", "--jvm-opt=-Xmx64m", "--jvm-opt=-XX:TieredStopAtLevel=1",
                "--", ViewApp.class.getName(), "6", "150")));
        launcher.start();
        HttpClient http = HttpClient.newHttpClient();
        AtomicReference<URI> dashboard = new AtomicReference<>();
        Pattern address = Pattern.compile("dashboard at (http://\\S+)");
        while (launcher.isAlive()) {
            Matcher m = address.matcher(errBytes.toString(StandardCharsets.UTF_8));
            if (dashboard.get() == null && m.find()) {
                dashboard.set(URI.create(m.group(1)));
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
    void liveDashboard_servedTheRunningJob() {
        assertThat(err).contains("ironloop: dashboard at http://127.0.0.1:");
        assertThat(liveStates).as("polled while the job ran").isNotEmpty()
                .anySatisfy(s -> assertThat(s).contains("\"status\":\"running\"", "\"job\":\"ironloop-"));
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
