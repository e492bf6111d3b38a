package io.ironloop.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ironloop.config.Parameters;
import io.ironloop.core.EngineKeys;
import io.ironloop.group.GroupKeys;
import io.ironloop.runtime.tasks.WorkloadScheduler;
import io.ironloop.runtime.trigger.TriggerKeys;

/** DeLIA's Listing 2 parameter file loads unchanged, with DeLIA's meanings. */
class ListingTwoTest {
    @TempDir
    Path dir;

    @Test
    void listingTwo_loadsWithDeliaMeanings_bareNumbersAreSeconds() throws Exception {
        Path file = dir.resolve("delia_param.json");
        Files.writeString(file, """
                {
                "FT_FOLDER" : "./data",
                "CHECKPOINTING_GLOBAL_ITERATION": 1,
                "TRIGGER_SIGNAL" : true,
                "TRIGGER_HEARTBEAT_MONITORING": {
                "TIME_MAX_WAIT" : 20,
                "SLEEP_THREAD_TIME" : 1
                }
                }
                """);
        Parameters p = Parameters.load(RuntimeKeys.TABLE, file, Map.of(), Map.of());
        assertThat(p.get(EngineKeys.FT_FOLDER)).isEqualTo(Path.of("./data"));
        assertThat(p.get(RuntimeKeys.CHECKPOINTING_GLOBAL_ITERATION)).isEqualTo(1L);
        assertThat(p.get(TriggerKeys.TRIGGER_SIGNAL)).isTrue();
        assertThat(p.isSet(GroupKeys.TRIGGER_HEARTBEAT_MONITORING)).isTrue();
        assertThat(p.get(GroupKeys.TIME_MAX_WAIT)).isEqualTo(Duration.ofSeconds(20));
        assertThat(p.get(GroupKeys.SLEEP_THREAD_TIME)).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.get(RuntimeKeys.WORKLOAD_SCHEDULER)).isEqualTo(WorkloadScheduler.DS);
        assertThat(p.get(RuntimeKeys.CHECKPOINTING_LOCAL_RECENT)).isTrue();
    }

    @Test
    void environmentOverridesTheFile() throws Exception {
        Path file = dir.resolve("p.json");
        Files.writeString(file, "{\"WORKLOAD_SCHEDULER\": \"DS\"}");
        Parameters p = Parameters.load(RuntimeKeys.TABLE, file, Map.of("IRONLOOP_WORKLOAD_SCHEDULER", "ctws"), Map.of());
        assertThat(p.get(RuntimeKeys.WORKLOAD_SCHEDULER)).isEqualTo(WorkloadScheduler.CTWS);
    }
}
