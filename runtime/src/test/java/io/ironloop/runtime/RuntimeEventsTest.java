package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.config.Parameters;
import io.ironloop.group.InJvmCluster;
import io.ironloop.runtime.event.RuntimeEvent;

/** The runtime's events: a save is reported when its state is staged, then when it is durable. */
class RuntimeEventsTest {
    @TempDir
    Path dir;

    @Test
    void saveGlobal_reportsSnapshottedWithTheStagedBytes_thenSaved() {
        List<String> events = new CopyOnWriteArrayList<>();
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), Map.of("FT_FOLDER", dir.toString()));
        try (InJvmCluster cluster = InJvmCluster.open("job", 1);
             Ironloop ft = Ironloop.builder().parameters(p).subscribe(e -> {
                 if (e instanceof RuntimeEvent.Snapshotted s) {
                     events.add("snapshotted " + s.kind() + " " + s.iteration() + " " + (s.bytes() >= 8 * 1000) + " "
                             + !s.blocking().isNegative());
                 } else if (e instanceof RuntimeEvent.Saved s) {
                     events.add("saved " + s.kind() + " " + s.iteration() + " " + s.level());
                 }
             }).joinWith(l -> cluster.group(0)).start()) {
            ft.registerGlobal("global", new double[1000]);
            ft.saveGlobal();
            ft.complete("done");
        }

        assertThat(events).containsExactly("snapshotted GLOBAL 1 true true", "saved GLOBAL 1 disk");
    }

    @Test
    void saveGlobal_committedLine_toldToTheProvidedObservers_oneThatThrowsFailsNothing() {
        List<String> saved = new CopyOnWriteArrayList<>();
        Parameters p = Parameters.load(RuntimeKeys.TABLE, null, Map.of(), Map.of("FT_FOLDER", dir.toString()));
        RecordingLineObservers.SEEN.clear();
        RecordingLineObservers.recording = true;
        try (InJvmCluster cluster = InJvmCluster.open("job", 1);
             Ironloop ft = Ironloop.builder().parameters(p).subscribe(e -> {
                 if (e instanceof RuntimeEvent.Saved s) {
                     saved.add(s.kind() + "@" + s.iteration());
                 }
             }).joinWith(l -> cluster.group(0)).start()) {
            ft.registerGlobal("global", new double[1000]);
            ft.saveGlobal();
            ft.saveGlobal();
            ft.complete("done");
        } finally {
            RecordingLineObservers.recording = false;
        }

        assertThat(saved).containsExactly("GLOBAL@1", "GLOBAL@2");
        assertThat(RecordingLineObservers.SEEN).containsExactly("global@1", "global@2");
    }
}
