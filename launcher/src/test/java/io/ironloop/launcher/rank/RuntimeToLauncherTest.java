package io.ironloop.launcher.rank;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironloop.config.Parameters;
import io.ironloop.core.LineInfo;
import io.ironloop.core.Store;
import io.ironloop.core.StoreCatalog;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.Ironloop;
import io.ironloop.runtime.RuntimeKeys;
import io.ironloop.runtime.event.EventSubscriberProvider;
import io.ironloop.runtime.event.RuntimeEvents;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runtime's events reach the launcher as control messages through a subscriber, never a static locator. */
class RuntimeToLauncherTest {
    @TempDir
    Path dir;

    @Test
    void launcherEventsSubscriber_receivesTheRuntimesEventsAsControlMessages_theSaveWithItsCost() throws Exception {
        List<String> sent = new CopyOnWriteArrayList<>();
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), Map.of("FT_FOLDER", dir.toString()));
        try (InJvmCluster cluster = InJvmCluster.open("job", 1);
             Ironloop ft = Ironloop.builder().parameters(p).subscribe(new LauncherEvents(LauncherLink.recording(sent::add), () -> 0))
                     .joinWith(l -> cluster.group(0)).start()) {
            ft.plan(1);
            ft.registerGlobal("global", new double[10]);
            ft.saveGlobal();
            ft.report("phase", Map.of("name", "done"));
            ft.complete("done");
        }

        // the save is durable on the writer's thread: before or after the iteration is reported
        List<String> saved = sent.stream().filter(m -> m.startsWith("{\"type\":\"saved\"")).toList();
        assertThat(sent).startsWith("{\"type\":\"plan\",\"iterations\":1}").endsWith("{\"type\":\"complete\",\"iteration\":1}")
                .hasSize(5).containsSubsequence("{\"type\":\"plan\",\"iterations\":1}", "{\"type\":\"iteration\",\"iteration\":1}",
                        "{\"type\":\"phase\",\"name\":\"done\"}", "{\"type\":\"complete\",\"iteration\":1}");
        assertThat(saved).hasSize(1);
        JsonNode save = new ObjectMapper().readTree(saved.get(0));
        LineInfo line = StoreCatalog.of(Store.directory(dir)).lines("global").get(0);
        assertThat(save.get("iteration").asLong()).isEqualTo(1);
        assertThat(save.get("level").asText()).isEqualTo("global");
        assertThat(save.get("bytes").asLong()).as("the size of %s", line.dataFile()).isEqualTo(line.dataBytes());
        assertThat(save.get("blocking_s").asDouble()).as("the snapshot's copy").isGreaterThan(0).isLessThan(10);
    }

    @Test
    void providedSubscriber_isFoundThroughServiceLoader_andSilentOutsideTheLauncher() {
        assertThat(ServiceLoader.load(EventSubscriberProvider.class).stream().map(ServiceLoader.Provider::type))
                .containsExactly(LauncherSubscriberProvider.class);
        // this JVM was not started by the launcher (no RankBootstrap connection): nothing subscribes
        assertThat(new LauncherSubscriberProvider().subscriber(() -> 0)).isEmpty();
        RuntimeEvents.withProvidedSubscribers(() -> 0).publish(new io.ironloop.runtime.event.RuntimeEvent.Planned(3));
    }
}
