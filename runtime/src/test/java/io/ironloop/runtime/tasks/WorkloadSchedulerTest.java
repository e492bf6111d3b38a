package io.ironloop.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadSchedulerTest {

    @ParameterizedTest
    @CsvSource({"DS, DS", "ds, DS", " Ds , DS", "CTWS, CTWS", "ctws, CTWS", "cTwS, CTWS"})
    void parse_anyCase_givesScheduler(String text, WorkloadScheduler expected) {
        assertThat(WorkloadScheduler.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "WS", "static", "C TWS", "DS,CTWS"})
    void parse_unknownValue_namesKeyAndAllowedValues(String text) {
        assertThatThrownBy(() -> WorkloadScheduler.parse(text))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("WORKLOAD_SCHEDULER")
                .hasMessageContaining("DS")
                .hasMessageContaining("CTWS");
    }

    @org.junit.jupiter.api.Test
    void key_defaultIsDs_andParsesLikeParse() {
        assertThat(TaskKeys.WORKLOAD_SCHEDULER.name()).isEqualTo("WORKLOAD_SCHEDULER");
        assertThat(TaskKeys.WORKLOAD_SCHEDULER.defaultValue()).isEqualTo(WorkloadScheduler.DS);
        assertThat(TaskKeys.WORKLOAD_SCHEDULER.parse("ctws")).isEqualTo(WorkloadScheduler.CTWS);
        assertThat(TaskKeys.ALL).containsExactly(TaskKeys.WORKLOAD_SCHEDULER);
    }
}
