package io.ironloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ironloop.examples.blocks.BlockReference;
import io.ironloop.examples.blocks.heat.HeatBlocks;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code ironloop demo sites}: three rank JVMs and four protector JVMs (three sites and a spare site, started by the
 * launcher as under {@code ironloop run --fake-sites}), one whole site lost, at the test size.
 */
class SitesDemoTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int demo(String... args) {
        return Main.execute(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    @Test
    void demoSites_siteLostMidRun_detectedVerifiedPlacedOnTheSpare_tableV2_bitIdentical() {
        int status = demo("demo", "sites", "--size", "test");

        String log = err.toString(StandardCharsets.UTF_8);
        assertThat(status).as(log).isZero();
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).as(log).hasSize(3);
        String reference = BlockReference.run(HeatBlocks.preset("test", 0)).digest();
        assertThat(lines.get(0)).as("site-1's rank is recovered online by the survivors").isEqualTo("relaunches=0 online_recoveries=1");
        assertThat(lines.get(1)).isEqualTo("result sha256=" + reference);
        assertThat(lines.get(2)).isEqualTo("bit-identical to failure-free run: yes (reference sha256=" + reference + ")");
        assertThat(log).containsSubsequence(
                "LOST site-1: SIGKILL to rank 1",
                "site-0's protector: DETECTED site-1 silent",
                "site-0's protector: site-1 DECLARED failed, VERIFIED by site-2",
                "site-0's protector: site-1's site checkpoint PLACED on spare-0 (SPARE_SITE): rank-00001");
        assertThat(log).containsPattern("asked site-2's protector for the table: v2, ranks 0@site-0,1@spare-0,2@site-2")
                .containsPattern("asked spare-0's protector for the table: v2, ranks 0@site-0,1@spare-0,2@site-2");
        assertThat(log).doesNotContain("DECLARED failed, VERIFIED by nobody");
    }

    @Test
    void demoSites_refusesOptionsOfTheOtherDemos() {
        assertThat(demo("demo", "sites", "--ranks", "4")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("only --size and --restarts apply");
    }

    @Test
    void demoSitesHelp_saysTheProtectorsAreProcessesAsUnderRun() {
        assertThat(demo("demo", "sites", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("APP sites:", "one process per site", "ironloop run --fake-sites");
    }
}
