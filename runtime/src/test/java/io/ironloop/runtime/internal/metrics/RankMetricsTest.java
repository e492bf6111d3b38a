package io.ironloop.runtime.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.ConfigurationException;
import io.ironloop.config.Parameters;
import io.ironloop.runtime.RuntimeKeys;
import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvent.RecoverySource;
import io.ironloop.runtime.event.RuntimeEvent.StateKind;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The subscriber fed events directly: names of the exported metrics, the dashboard's queries, the endpoint's port. */
class RankMetricsTest {
    private static final Path DASHBOARD = Path.of("..", "docs", "grafana-dashboard.json").toAbsolutePath().normalize();
    private static final Pattern METRIC = Pattern.compile("\\bironloop_[a-z_]+");

    /** Every metric family the subscriber exports, after one event of each kind. */
    private static Set<String> exported() {
        RankMetrics m = new RankMetrics("job-1", 3, 4);
        m.accept(new RuntimeEvent.Snapshotted(StateKind.BLOCKS, 8, Duration.ofMillis(2), 4096));
        m.accept(new RuntimeEvent.Handshake(8, true, Duration.ofMillis(1)));
        m.accept(new RuntimeEvent.Saved(StateKind.BLOCKS, 8, RuntimeEvent.Saved.MEMORY, Duration.ofMillis(5), Duration.ofMillis(3), 4096));
        m.accept(new RuntimeEvent.Restored(StateKind.GLOBAL, 4));
        m.accept(new RuntimeEvent.FailureDetected(Set.of(1)));
        m.accept(new RuntimeEvent.GroupShrunk(Set.of(1), 4, 3, Duration.ofMillis(3)));
        m.accept(new RuntimeEvent.RecoveredOnline(Set.of(1), 8, RecoverySource.MEMORY, 0, Duration.ofMillis(1), Duration.ofMillis(3),
                Duration.ofMillis(7), Duration.ofMillis(2)));
        m.accept(new RuntimeEvent.RecoveryImpossible(Set.of(2), "no copy"));
        m.accept(new RuntimeEvent.TriggerFired("SignalReceived[signal=TERM, exitStatus=143]", "2030-01-01T00:00:00Z"));
        Set<String> names = new TreeSet<>();
        for (String line : m.scrape().split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                names.add(line.substring(0, line.indexOf('{')));
            }
        }
        return names;
    }

    @Test
    void dashboard_everyQuery_namesOnlyExportedMetrics_andCoversEveryFamily() throws Exception {
        Set<String> exported = exported();
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        List<String> queries = new ArrayList<>();
        dashboard.findValues("expr").forEach(e -> queries.add(e.asText()));
        dashboard.findValues("definition").forEach(e -> queries.add(e.asText()));
        assertThat(queries).hasSizeGreaterThan(10);
        Set<String> used = new TreeSet<>();
        for (String q : queries) {
            Matcher m = METRIC.matcher(q);
            List<String> names = new ArrayList<>();
            while (m.find()) {
                names.add(m.group());
            }
            assertThat(names).as("metrics in the query %s", q).isNotEmpty();
            assertThat(exported).as("exported metrics, for the query %s", q).containsAll(names);
            used.addAll(names);
        }
        Set<String> families = new TreeSet<>();
        exported.forEach(n -> families.add(n.replaceAll("_(count|sum|max)$", "")));
        Set<String> usedFamilies = new TreeSet<>();
        used.forEach(n -> usedFamilies.add(n.replaceAll("_(count|sum|max)$", "")));
        assertThat(usedFamilies).as("metric families the dashboard shows").containsExactlyElementsOf(families);
    }

    @Test
    void scrape_afterEvents_bytesPerLevelAsTheLevelHoldsAndTriggerCauseWithoutDetails() {
        RankMetrics m = new RankMetrics("job-1", 3, 4);
        m.accept(new RuntimeEvent.Snapshotted(StateKind.LOCAL, 5, Duration.ofMillis(2), 1000));
        m.accept(new RuntimeEvent.Snapshotted(StateKind.GLOBAL, 5, Duration.ofMillis(2), 300));
        m.accept(new RuntimeEvent.Saved(StateKind.LOCAL, 5, RuntimeEvent.Saved.DISK, Duration.ofMillis(5), Duration.ofMillis(2), 1000));
        m.accept(new RuntimeEvent.Saved(StateKind.GLOBAL, 5, RuntimeEvent.Saved.DISK_COPY, Duration.ofMillis(5), Duration.ofMillis(2), 300));
        m.accept(new RuntimeEvent.TriggerFired("SignalReceived[signal=TERM, exitStatus=143, at=2030-01-01T00:00:00Z]", "x"));
        String s = m.scrape();
        assertThat(s).contains("ironloop_checkpoint_bytes_total{job=\"job-1\",kind=\"local\",level=\"disk\",rank=\"3\"} 1000.0")
                .contains("ironloop_checkpoint_bytes_total{job=\"job-1\",kind=\"global\",level=\"disk-copy\",rank=\"3\"} 300.0")
                .contains("ironloop_triggers_total{cause=\"SignalReceived\",job=\"job-1\",rank=\"3\"} 1.0")
                .contains("ironloop_iteration_committed{job=\"job-1\",rank=\"3\"} 5.0");
    }

    @Test
    void start_portTaken_configurationExceptionNamesPortAndKey() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("0.0.0.0"))) {
            int base = taken.getLocalPort() - 2; // world rank 2 lands on the taken port
            Parameters p = Parameters.defaults(RuntimeKeys.TABLE).with(RuntimeKeys.METRICS_PORT, (long) base);
            assertThatThrownBy(() -> RankMetrics.start(p, "job-1", 2, 4)).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("port " + taken.getLocalPort()).hasMessageContaining("METRICS_PORT");
        }
    }

    @Test
    void start_withoutPort_noEndpointAndNoMeters() {
        try (RankMetrics m = RankMetrics.start(Parameters.defaults(RuntimeKeys.TABLE), "job-1", 0, 1)) {
            m.accept(new RuntimeEvent.Snapshotted(StateKind.LOCAL, 5, Duration.ofMillis(2), 1000));
            assertThat(m.address()).isEmpty();
            assertThatThrownBy(m::scrape).isInstanceOf(IllegalStateException.class).hasMessageContaining("METRICS_PORT");
        }
    }
}
