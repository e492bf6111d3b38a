package io.ironloop.group.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The launcher's environment as a rank reads it: spares and host, with their defaults and checks. */
class LaunchEnvironmentTest {
    private static Map<String, String> env(String... extra) {
        Map<String, String> env = new HashMap<>(Map.of("IRONLOOP_RANK", "2", "IRONLOOP_SIZE", "3", "IRONLOOP_JOB", "j",
                "IRONLOOP_PEERS", "127.0.0.1:5000,127.0.0.1:5001,127.0.0.1:5002", "IRONLOOP_SECRET_FILE", "/tmp/s",
                "IRONLOOP_ATTEMPT", "0", "IRONLOOP_LAUNCHER", "127.0.0.1:4000"));
        for (int i = 0; i + 1 < extra.length; i += 2) {
            env.put(extra[i], extra[i + 1]);
        }
        return env;
    }

    @Test
    void from_sparesAndHostGiven_readsThemAndTheLastRanksAreSpares() {
        LaunchEnvironment e = LaunchEnvironment.from(env(LaunchEnvironment.SPARES, "1", LaunchEnvironment.HOST, "host-1"))
                .orElseThrow();

        assertThat(e.spares()).isEqualTo(1);
        assertThat(e.host()).isEqualTo("host-1");
        assertThat(e.isSpare()).isTrue();
        LaunchEnvironment first = LaunchEnvironment.from(env("IRONLOOP_RANK", "1", LaunchEnvironment.SPARES, "1")).orElseThrow();
        assertThat(first.isSpare()).isFalse();
    }

    @Test
    void from_sparesAndHostAbsent_noSparesAndThisHostsName() {
        LaunchEnvironment e = LaunchEnvironment.from(env()).orElseThrow();

        assertThat(e.spares()).isZero();
        assertThat(e.isSpare()).isFalse();
        assertThat(e.host()).isEqualTo(LaunchEnvironment.localHostName()).isNotBlank();
    }

    @Test
    void from_badSpares_configurationErrorNamingTheVariable() {
        assertThatThrownBy(() -> LaunchEnvironment.from(env(LaunchEnvironment.SPARES, "one")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("IRONLOOP_SPARES='one' is not an integer");
        assertThatThrownBy(() -> LaunchEnvironment.from(env(LaunchEnvironment.SPARES, "3")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("3 spares among 3 ranks");
        assertThatThrownBy(() -> LaunchEnvironment.from(env(LaunchEnvironment.SPARES, "-1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("IRONLOOP_SPARES");
    }
}
