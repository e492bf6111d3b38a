package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.config.Parameters;
import io.ironloop.group.InJvmCluster;

/** The runtime's events: a save is reported when its state is staged, then when it is durable. */
class RuntimeListenerTest {
    @TempDir
    Path dir;

    @Test
    void saveGlobal_reportsSnapshottedWithTheStagedBytes_thenSaved() {
        List<String> events = new CopyOnWriteArrayList<>();
        RuntimeListener listener = new RuntimeListener() {
            @Override
            public void snapshotted(String level, long iteration, Duration blocking, long bytes) {
                events.add("snapshotted " + level + " " + iteration + " " + (bytes >= 8 * 1000) + " " + !blocking.isNegative());
            }

            @Override
            public void saved(String level, long iteration, Duration sinceSnapshot) {
                events.add("saved " + level + " " + iteration);
            }
        };
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), Map.of("FT_FOLDER", dir.toString()));
        try (InJvmCluster cluster = InJvmCluster.open("job", 1);
             Ironloop ft = Ironloop.builder().parameters(p).listener(listener).joinWith(l -> cluster.group(0)).start()) {
            ft.registerGlobal("global", new double[1000]);
            ft.saveGlobal();
            ft.complete("done");
        }

        assertThat(events).containsExactly("snapshotted global 1 true true", "saved global 1");
    }
}
