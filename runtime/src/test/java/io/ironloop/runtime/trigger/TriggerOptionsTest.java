package io.ironloop.runtime.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import io.ironloop.config.ParameterTable;
import io.ironloop.config.Parameters;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TriggerOptionsTest {
    private static final ParameterTable TABLE = ParameterTable.of(TriggerKeys.ALL);

    private static TriggerOptions load(Map<String, String> overrides) {
        return TriggerOptions.from(Parameters.load(TABLE, null, Map.of(), overrides));
    }

    @Test
    void from_defaults_termAndIntSaveAndNoticesOff() {
        TriggerOptions options = load(Map.of());
        assertThat(options.signals()).containsExactly(TerminationSignal.TERM, TerminationSignal.INT);
        assertThat(options.signalDeadline()).isEqualTo(Duration.ofSeconds(25));
        assertThat(options.preemption()).isEqualTo(PreemptionNoticeSource.NONE);
        assertThat(options.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(options.awsUrl()).isEqualTo(URI.create("http://169.254.169.254/latest/meta-data/spot/instance-action"));
        assertThat(options).isEqualTo(TriggerOptions.builder().signals(EnumSet.of(TerminationSignal.TERM, TerminationSignal.INT)).build());
    }

    @Test
    void from_deliasTriggerSignalFalse_everythingOff() {
        assertThat(load(Map.of("TRIGGER_SIGNAL", "false"))).isEqualTo(TriggerOptions.disabled());
    }

    @Test
    void from_signalListAlone_appliesSinceSignalsAreOnByDefault() {
        assertThat(load(Map.of("TRIGGER_SIGNALS", "TERM,USR1")).signals()).containsExactly(TerminationSignal.TERM, TerminationSignal.USR1);
    }

    @Test
    void from_triggerSignalTrue_defaultSignalsTermAndInt() {
        assertThat(load(Map.of("TRIGGER_SIGNAL", "true")).signals()).containsExactly(TerminationSignal.TERM, TerminationSignal.INT);
    }

    @Test
    void from_slurmUsr1AndAws_parsed() {
        TriggerOptions options = load(Map.of("TRIGGER_SIGNAL", "true", "TRIGGER_SIGNALS", "sigterm, USR1",
                "TRIGGER_SIGNAL_DEADLINE", "100", "PREEMPTION_NOTICE", "aws", "PREEMPTION_POLL_INTERVAL", "5s",
                "PREEMPTION_AWS_URL", "http://127.0.0.1:8080/latest/meta-data/spot/instance-action"));
        assertThat(options.signals()).containsExactly(TerminationSignal.TERM, TerminationSignal.USR1);
        assertThat(options.signalDeadline()).isEqualTo(Duration.ofSeconds(100));
        assertThat(options.preemption()).isEqualTo(PreemptionNoticeSource.AWS);
        assertThat(options.pollInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.awsUrl().getPort()).isEqualTo(8080);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "TRIGGER_SIGNALS; TERM,HUP",
        "TRIGGER_SIGNALS; TERM,TERM",
        "PREEMPTION_NOTICE; OCI",
        "PREEMPTION_GCE_URL; ftp://metadata/x",
        "PREEMPTION_POLL_INTERVAL; 1ms",
        "TRIGGER_SIGNAL; maybe"})
    void from_badValue_errorNamesTheKey(String key, String value) {
        Map<String, String> overrides = new HashMap<>(Map.of("TRIGGER_SIGNAL", "true", "PREEMPTION_NOTICE", "AUTO"));
        overrides.put(key, value);
        assertThatThrownBy(() -> load(overrides))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("bad value for " + key);
    }

    @Test
    void from_signalListWithoutTriggerSignal_clearError() {
        assertThatThrownBy(() -> load(Map.of("TRIGGER_SIGNAL", "false", "TRIGGER_SIGNALS", "USR1")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("TRIGGER_SIGNALS is set").hasMessageContaining("set TRIGGER_SIGNAL to true");
    }

    @Test
    void from_endpointWithoutPreemptionNotice_clearError() {
        assertThatThrownBy(() -> load(Map.of("PREEMPTION_AZURE_URL", "http://127.0.0.1:1/x")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("PREEMPTION_AZURE_URL is set")
                .hasMessageContaining("PREEMPTION_NOTICE");
    }

    @Test
    void builder_repeatedOrBadSetting_rejected() {
        TriggerOptions.Builder b = TriggerOptions.builder().signals(EnumSet.of(TerminationSignal.TERM));
        assertThatThrownBy(() -> b.signals(EnumSet.of(TerminationSignal.INT))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> b.pollInterval(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.preemptionMargin(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.gceUrl(URI.create("metadata/x"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(b.build().signals()).containsExactly(TerminationSignal.TERM);
    }

    @Test
    void keys_tableAndExitStatuses() {
        assertThat(TABLE.markdown()).contains("`TRIGGER_SIGNAL`", "`PREEMPTION_NOTICE`", "`NONE\\|AWS\\|GCE\\|AZURE\\|AUTO`");
        assertThat(TerminationSignal.TERM.linuxExitStatus()).isEqualTo(143);
        assertThat(TerminationSignal.INT.linuxExitStatus()).isEqualTo(130);
        assertThat(TerminationSignal.USR1.linuxExitStatus()).isEqualTo(138);
        assertThat(TerminationSignal.USR2.linuxExitStatus()).isEqualTo(140);
    }
}
