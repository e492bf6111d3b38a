package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ironloop.config.Parameters;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.event.RuntimeEvent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DeLIA-style rank that receives a preemption notice (from a fake AWS metadata server on loopback): the trigger and
 * the local save it causes show in the rank's Prometheus endpoint, scraped over HTTP, and in a flight recording.
 */
class MetricsTriggerTest {
    @TempDir
    Path dir;

    @Test
    void preemptionNotice_savesLocal_triggerAndCheckpointInMetricsAndFlightRecording() throws Exception {
        String notice = "{\"action\": \"terminate\", \"time\": \"" + Instant.now().plusSeconds(120) + "\"}";
        HttpServer aws = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        aws.createContext("/latest/api/token", x -> reply(x, "token"));
        aws.createContext("/latest/meta-data/spot/instance-action", x -> reply(x, notice));
        aws.start();
        Path jfr = dir.resolve("trigger.jfr");
        List<RuntimeEvent> events = new CopyOnWriteArrayList<>();
        String scrape;
        try (Recording recording = new Recording(); InJvmCluster cluster = InJvmCluster.open("trigger", 1)) {
            recording.enable("io.ironloop.Trigger");
            recording.enable("io.ironloop.Checkpoint");
            recording.start();
            Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), Map.of("FT_FOLDER", dir.resolve("ft").toString(),
                    "METRICS_PORT", "0", "PREEMPTION_NOTICE", "aws", "PREEMPTION_POLL_INTERVAL", "50ms",
                    "PREEMPTION_AWS_URL", "http://127.0.0.1:" + aws.getAddress().getPort() + "/latest/meta-data/spot/instance-action"));
            try (Ironloop ft = Ironloop.builder().parameters(p).joinWith(l -> cluster.group(0)).subscribe(events::add).start()) {
                long[] local = {42};
                ft.registerLocal("local", local);
                ft.publishLocal();
                await().atMost(Duration.ofSeconds(30)).until(() -> events.stream().anyMatch(e -> e instanceof RuntimeEvent.TriggerSaved));
                InetSocketAddress at = ft.metricsAddress().orElseThrow();
                scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/metrics"))
                        .build(), HttpResponse.BodyHandlers.ofString()).body();
            }
            recording.stop();
            recording.dump(jfr);
        } finally {
            aws.stop(0);
        }
        assertThat(scrape).containsPattern("(?m)^ironloop_triggers_total\\{cause=\"PreemptionNoticed\",job=\"trigger\",rank=\"0\"\\} 1\\.0$");
        assertThat(scrape).containsPattern("(?m)^ironloop_checkpoint_duration_seconds_count\\{job=\"trigger\",kind=\"local\",level=\"disk\",rank=\"0\"\\} 1$");
        List<RecordedEvent> recorded = RecordingFile.readAllEvents(jfr);
        assertThat(recorded).filteredOn(e -> e.getEventType().getName().equals("io.ironloop.Trigger"))
                .extracting(e -> e.getString("stage")).containsExactly("fired", "saved");
        assertThat(recorded).filteredOn(e -> e.getEventType().getName().equals("io.ironloop.Checkpoint"))
                .extracting(e -> e.getString("kind") + "/" + e.getString("stage") + "/" + e.getString("level"))
                .contains("local/snapshot/", "local/committed/disk");
    }

    private static void reply(HttpExchange exchange, String body) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }
}
