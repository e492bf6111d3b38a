package io.ironloop.launcher.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.config.Parameters;
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
    void launcherEventsSubscriber_receivesTheRuntimesEventsAsControlMessages() {
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
        assertThat(sent).startsWith("{\"type\":\"plan\",\"iterations\":1}").endsWith("{\"type\":\"complete\",\"iteration\":1}")
                .containsExactlyInAnyOrder("{\"type\":\"plan\",\"iterations\":1}", "{\"type\":\"iteration\",\"iteration\":1}",
                        "{\"type\":\"saved\",\"iteration\":1,\"level\":\"global\"}", "{\"type\":\"phase\",\"name\":\"done\"}",
                        "{\"type\":\"complete\",\"iteration\":1}");
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
