package io.ironloop.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ironloop.ConfigurationException;
import io.ironloop.config.ParameterTable;
import io.ironloop.config.Parameters;
import io.ironloop.group.internal.SlurmHostlist;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GroupConfigTest {
    @TempDir
    Path dir;

    @Test
    void defaults_delia_oneSecondAndFiveSecondsStar() {
        GroupConfig c = GroupConfig.defaults();
        assertThat(c.heartbeatInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.heartbeatTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.arrangement()).isEqualTo(HeartbeatArrangement.STAR);
    }

    @ParameterizedTest
    @CsvSource({"5s,5s", "6s,5s"})
    void build_intervalNotBelowTimeout_configurationException(String interval, String timeout) {
        GroupConfig.Builder b = GroupConfig.builder().heartbeatInterval(io.ironloop.config.Units.parseDuration(interval))
                .heartbeatTimeout(io.ironloop.config.Units.parseDuration(timeout));
        assertThatThrownBy(b::build).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("SLEEP_THREAD_TIME").hasMessageContaining("must be smaller than TRIGGER_HEARTBEAT_MONITORING.TIME_MAX_WAIT");
    }

    @Test
    void setters_badOrRepeated_rejected() {
        assertThatThrownBy(() -> GroupConfig.builder().heartbeatInterval(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GroupConfig.builder().peers("localhost")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("host:port");
        assertThatThrownBy(() -> GroupConfig.builder().size(2).size(3)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> GroupConfig.builder().discovery(DiscoveryMode.DNS).build()).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("GROUP_DNS_QUERY");
    }

    @Test
    void from_deliaParameterFile_readsSectionAndBareSeconds() throws Exception {
        Path f = dir.resolve("params.json");
        Files.writeString(f, "{\"TRIGGER_HEARTBEAT_MONITORING\": {\"TIME_MAX_WAIT\": 20, \"SLEEP_THREAD_TIME\": 2, \"TYPE\": \"ring\"}}");
        Parameters p = Parameters.load(ParameterTable.of(GroupKeys.ALL), f, Map.of(), Map.of());
        GroupConfig c = GroupConfig.from(p);
        assertThat(c.heartbeatTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(c.heartbeatInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.arrangement()).isEqualTo(HeartbeatArrangement.RING);
        assertThat(c.heartbeatTrigger()).isTrue();
    }

    @Test
    void detect_launcherSlurmOmpiKubernetes() {
        GroupConfig cfg = GroupConfig.builder().size(4).build();
        RankEnvironment l = RankEnvironment.detect(Map.of("IRONLOOP_RANK", "1", "IRONLOOP_SIZE", "2", "IRONLOOP_JOB", "j",
                "IRONLOOP_PEERS", "127.0.0.1:5000,127.0.0.1:5001"), cfg);
        assertThat(l).extracting(RankEnvironment::rank, RankEnvironment::size, RankEnvironment::jobId, RankEnvironment::source)
                .containsExactly(1, 2, "j", RankEnvironment.Source.IRONLOOP);
        RankEnvironment s = RankEnvironment.detect(Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "4", "SLURM_JOB_ID", "77",
                "SLURM_NODELIST", "n[01-02]", "SLURM_TASKS_PER_NODE", "2(x2)", "SLURM_LOCALID", "1"), cfg);
        assertThat(s.peers()).containsExactly("n01:7800", "n02:7800");
        assertThat(s.jobId()).isEqualTo("slurm-77");
        assertThat(s.ranksPerHost()).isEqualTo(2);
        RankEnvironment o = RankEnvironment.detect(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "3", "IRONLOOP_JOB", "x"), cfg);
        assertThat(o.size()).isEqualTo(3);
        RankEnvironment k = RankEnvironment.detect(Map.of("JOB_COMPLETION_INDEX", "2", "IRONLOOP_JOB", "k8s"), cfg);
        assertThat(k.rank()).isEqualTo(2);
        assertThat(k.size()).isEqualTo(4);
        assertThatThrownBy(() -> RankEnvironment.detect(Map.of(), cfg)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("IRONLOOP_RANK");
    }

    @Test
    void slurmHostlist_rangesAndPadding_expanded() {
        assertThat(SlurmHostlist.expand("node[01-03,07],gpu5,x[8-9]-ib"))
                .isEqualTo(List.of("node01", "node02", "node03", "node07", "gpu5", "x8-ib", "x9-ib"));
        assertThat(SlurmHostlist.maxTasksPerNode("2(x3),4", 1)).isEqualTo(4);
    }
}
