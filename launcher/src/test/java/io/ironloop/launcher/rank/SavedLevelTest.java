package io.ironloop.launcher.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.runtime.event.RuntimeEvent;
import io.ironloop.runtime.event.RuntimeEvent.StateKind;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link SavedLevel}: the level each runtime save is reported on, and what the timeline's readers make of it. */
class SavedLevelTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        // kind, runtime level, message level, routine, job checkpoint, local
        "GLOBAL, disk,      global,        false, true,  false",
        "GLOBAL, disk-copy, global-copy,   true,  false, false",
        "GLOBAL, shared,    global-shared, true,  false, false",
        "LOCAL,  disk,      local,         false, false, true",
        "LOCAL,  s3,        local-s3,      true,  false, true",
        "BLOCKS, memory,    memory,        true,  false, false",
        "BLOCKS, disk,      disk,          false, true,  false"})
    void of_eachSaveTheRuntimeReports_oneLevelAndOneMeaning(StateKind kind, String level, String message, boolean routine,
            boolean jobCheckpoint, boolean local) {
        String reported = SavedLevel.of(new RuntimeEvent.Saved(kind, 3, level, Duration.ZERO, Duration.ZERO, 0));

        assertThat(reported).isEqualTo(message);
        assertThat(SavedLevel.isRoutine(reported)).as("routine").isEqualTo(routine);
        assertThat(SavedLevel.isJobCheckpoint(reported)).as("a checkpoint of the whole job").isEqualTo(jobCheckpoint);
        assertThat(SavedLevel.isLocal(reported)).as("local state").isEqualTo(local);
    }
}
