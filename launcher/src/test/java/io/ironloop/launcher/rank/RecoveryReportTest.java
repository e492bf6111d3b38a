package io.ironloop.launcher.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The survivors' report of an online recovery: its checks and its names on the wire. */
class RecoveryReportTest {
    @Test
    void source_wireNames() {
        assertThat(RecoveryReport.Source.MEMORY.wireName()).isEqualTo("memory");
        assertThat(RecoveryReport.Source.DISK.wireName()).isEqualTo("disk");
    }

    @Test
    void constructor_noLostRankOrNegativeValue_rejected() {
        Duration s = Duration.ofMillis(5);
        assertThatThrownBy(() -> new RecoveryReport(List.of(), 3, RecoveryReport.Source.MEMORY, 0, s, s, s, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
        assertThatThrownBy(() -> new RecoveryReport(List.of(1), -1, RecoveryReport.Source.MEMORY, 0, s, s, s, s))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecoveryReport(List.of(1), 3, RecoveryReport.Source.DISK, 0, s, s.negated(), s, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative time");
        assertThat(new RecoveryReport(List.of(1, 3), 3, RecoveryReport.Source.DISK, 1, s, s, s, s).lost()).containsExactly(1, 3);
    }
}
