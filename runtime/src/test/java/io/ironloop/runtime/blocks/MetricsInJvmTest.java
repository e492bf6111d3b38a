package io.ironloop.runtime.blocks;

import io.ironloop.core.Schedule;
import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.InJvmCluster;
import io.ironloop.group.ProcessGroup;
import io.ironloop.runtime.RuntimeKeys;
import io.ironloop.runtime.event.RuntimeEvent;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block loop's metrics and flight-recorder events from a real in-JVM run in which a rank is lost and recovered
 * online: the Prometheus endpoint is scraped over HTTP, the recording read back from its file.
 */
class MetricsInJvmTest {
    private static final Grid2D GRID = new Grid2D(3, 3, false, false);
    private static final int SIZE = 3;
    private static final int LOST = 2;
    private static final long CRASH_AT = 7;
    private static final long STEPS = 12;

    @TempDir
    Path dir;

    /** The crash of one rank's thread, standing in for a process's death. */
    private static final class Crashed extends RuntimeException {
    }

    /** What rank 0 saw: its events and, scraped over HTTP after the run, its metrics. */
    private record RankZero(List<RuntimeEvent> events, String scrape, InetSocketAddress address) {
    }

    private RankZero run(Path folder, long steps, long crashAt) throws Exception {
        Parameters p = Parameters.defaults(BlockLoop.TABLE).with(BlockKeys.SNAPSHOT_EVERY, Schedule.every(4)).with(BlockKeys.DISK_EVERY, Schedule.every(2))
                .with(RuntimeKeys.METRICS_PORT, 0L).with(EngineKeys.FT_FOLDER, folder);
        List<RuntimeEvent> events = Collections.synchronizedList(new ArrayList<>());
        try (InJvmCluster c = InJvmCluster.open("metrics", SIZE)) {
            ExecutorService pool = Executors.newFixedThreadPool(SIZE);
            List<Future<RankZero>> out = new ArrayList<>();
            for (int r = 0; r < SIZE; r++) {
                int rank = r;
                out.add(pool.submit(() -> {
                    ProcessGroup g = c.group(rank);
                    BlockLoop<TestHeatBlock> loop = BlockLoop.builder(GRID, id -> new TestHeatBlock(id, GRID)).parameters(p).group(g)
                            .settings(Map.of("n", TestHeatBlock.N)).subscribe(e -> {
                                if (rank == 0) {
                                    events.add(e);
                                }
                            }).start();
                    try {
                        loop.run(steps, step -> {
                            if (rank == LOST && step.iteration() == crashAt) {
                                c.crash(LOST);
                                throw new Crashed();
                            }
                            step.exchangeHalos();
                            step.blocks().forEach(TestHeatBlock::relax);
                        });
                        if (rank != 0) {
                            return null;
                        }
                        InetSocketAddress at = loop.metricsAddress().orElseThrow();
                        return new RankZero(List.copyOf(events), scrape(at), at);
                    } catch (Crashed e) {
                        return null;
                    } finally {
                        if (rank != LOST || crashAt < 0) {
                            loop.close();
                        }
                    }
                }));
            }
            RankZero zero = out.get(0).get(60, TimeUnit.SECONDS);
            for (Future<RankZero> f : out) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
            return zero;
        }
    }

    private static String scrape(InetSocketAddress at) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + at.getPort() + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        return response.body();
    }

    /** The value of the sample {@code name{…labels…}} whose labels include every one of {@code labels}. */
    private static double sample(String scrape, String name, String... labels) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(scrape);
        List<Double> found = new ArrayList<>();
        while (m.find()) {
            String have = m.group(1);
            if (Stream.of(labels).allMatch(l -> have.contains(l))) {
                found.add(Double.parseDouble(m.group(2)));
            }
        }
        assertThat(found).as("%s%s in%n%s", name, List.of(labels), scrape).hasSize(1);
        return found.get(0);
    }

    private static <T> List<T> of(List<RuntimeEvent> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static double seconds(Stream<Duration> durations) {
        return durations.mapToLong(Duration::toNanos).sum() / 1e9;
    }

    @Test
    void metricsEndpoint_rankLostAndRecovered_scrapedValuesFollowTheEvents() throws Exception {
        RankZero zero = run(dir.resolve("run"), STEPS, CRASH_AT);
        String s = zero.scrape();
        List<RuntimeEvent> ev = zero.events();

        assertThat(sample(s, "ironloop_group_size", "rank=\"0\"")).isEqualTo(SIZE - 1);
        List<RuntimeEvent.RecoveredOnline> recoveries = of(ev, RuntimeEvent.RecoveredOnline.class);
        assertThat(recoveries).hasSize(1);
        RuntimeEvent.RecoveredOnline rec = recoveries.get(0);
        assertThat(sample(s, "ironloop_recovery_seconds_count", "source=\"memory\"")).isEqualTo(1);
        assertThat(sample(s, "ironloop_recovery_seconds_sum")).isCloseTo(
                seconds(Stream.of(rec.detect(), rec.shrink(), rec.restore(), rec.rebalance())), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(sample(s, "ironloop_detection_seconds_sum")).isCloseTo(seconds(Stream.of(rec.detect())),
                org.assertj.core.data.Offset.offset(1e-6));
        assertThat(sample(s, "ironloop_recovery_phase_seconds_sum", "phase=\"restore\"")).isCloseTo(
                seconds(Stream.of(rec.restore())), org.assertj.core.data.Offset.offset(1e-6));

        // the loop's thread publishes captures, handshakes and memory commits: all were in before the scrape
        List<RuntimeEvent.Snapshotted> captures = of(ev, RuntimeEvent.Snapshotted.class);
        List<RuntimeEvent.Handshake> handshakes = of(ev, RuntimeEvent.Handshake.class);
        assertThat(captures).isNotEmpty();
        assertThat(sample(s, "ironloop_blocking_seconds_count", "phase=\"capture\"")).isEqualTo(captures.size());
        assertThat(sample(s, "ironloop_blocking_seconds_sum", "phase=\"capture\"")).isCloseTo(
                seconds(captures.stream().map(RuntimeEvent.Snapshotted::blocking)), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(sample(s, "ironloop_blocking_seconds_count", "phase=\"handshake\"")).isEqualTo(handshakes.size());
        List<RuntimeEvent.Saved> inMemory = of(ev, RuntimeEvent.Saved.class).stream()
                .filter(e -> e.level().equals(RuntimeEvent.Saved.MEMORY)).toList();
        assertThat(sample(s, "ironloop_checkpoint_duration_seconds_count", "level=\"memory\"")).isEqualTo(inMemory.size());
        long memoryBytes = inMemory.stream().mapToLong(saved -> captures.stream().filter(c -> c.iteration() == saved.iteration())
                .reduce((a, b) -> b).orElseThrow().bytes()).sum();
        assertThat(memoryBytes).isPositive();
        assertThat(sample(s, "ironloop_checkpoint_bytes_total", "level=\"memory\"")).isEqualTo(memoryBytes);
        long committed = handshakes.stream().filter(RuntimeEvent.Handshake::committed).mapToLong(RuntimeEvent.Handshake::iteration)
                .max().orElseThrow();
        assertThat(committed).isGreaterThan(CRASH_AT); // a snapshot after the recovery was committed
        assertThat(sample(s, "ironloop_iteration_committed", "rank=\"0\"")).isEqualTo(committed);
        assertThat(sample(s, "ironloop_checkpoint_duration_seconds_count", "level=\"disk\"")).isPositive();
    }

    @Test
    void flightRecording_relaunchThenRankLost_hasCheckpointRestoreRecoveryAndMembershipEvents() throws Exception {
        Path jfr = dir.resolve("run.jfr");
        try (Recording recording = new Recording()) {
            for (String name : List.of("Checkpoint", "Restore", "Recovery", "Membership")) {
                recording.enable("io.ironloop." + name);
            }
            recording.start();
            run(dir.resolve("run"), 8, -1);
            run(dir.resolve("run"), STEPS + 4, STEPS - 2); // the relaunch restores the newest disk line, then loses a rank
            recording.stop();
            recording.dump(jfr);
        }
        List<RecordedEvent> recorded = RecordingFile.readAllEvents(jfr);
        List<RecordedEvent> recovered = recorded.stream().filter(e -> e.getEventType().getName().equals("io.ironloop.Recovery"))
                .toList();
        assertThat(recovered).hasSize(SIZE - 1).allSatisfy(e -> {
            assertThat(e.getString("outcome")).isEqualTo("recovered");
            assertThat(e.getString("lost")).isEqualTo(String.valueOf(LOST));
            assertThat(e.getString("source")).isEqualTo("memory");
            assertThat(e.getDuration("restore")).isPositive();
        });
        assertThat(recorded).filteredOn(e -> e.getEventType().getName().equals("io.ironloop.Membership"))
                .hasSize(SIZE - 1).allSatisfy(e -> {
                    assertThat(e.getString("change")).isEqualTo("shrunk");
                    assertThat(e.getInt("newSize")).isEqualTo(SIZE - 1);
                });
        assertThat(recorded).filteredOn(e -> e.getEventType().getName().equals("io.ironloop.Checkpoint"))
                .extracting(e -> e.getString("stage") + "/" + e.getString("level"))
                .contains("snapshot/", "handshake/", "committed/memory", "committed/disk");
        assertThat(recorded).filteredOn(e -> e.getEventType().getName().equals("io.ironloop.Restore"))
                .hasSize(SIZE).allSatisfy(e -> assertThat(e.getLong("iteration")).isPositive());
    }
}
